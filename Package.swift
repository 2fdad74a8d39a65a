// swift-tools-version: 6.0
import PackageDescription

/// The language features every target of the package builds with.
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "cloudseed",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "CloudSeed", targets: ["CloudSeed"]),
        .library(name: "CloudSeedServer", targets: ["CloudSeedServer"]),
        .executable(name: "cloudseed", targets: ["cloudseed"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/swiftlang/swift-syntax", from: "603.0.1"),
    ],
    targets: [
        .systemLibrary(
            name: "CSQLite",
            path: "Sources/CSQLite",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
        ),
        .systemLibrary(
            name: "CPostgres",
            path: "Sources/CPostgres",
            pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"]), .brew(["libpq"])]
        ),
        .systemLibrary(
            name: "CLibXML2",
            path: "Sources/CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"]), .brew(["libxml2"])]
        ),
        // Records, values, text and errors: what every other target speaks.
        .target(
            name: "CloudSeedCore",
            dependencies: [.product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: swiftSettings,
            // ICU's transliteration interface (ICUTransliterator), from the library Foundation itself uses.
            linkerSettings: [.linkedLibrary("_FoundationICU", .when(platforms: [.linux]))]
        ),
        // Property lists, JSON and CSV read into rows and plain values.
        .target(
            name: "CloudSeedReaders",
            dependencies: ["CloudSeedCore", "CLibXML2"],
            swiftSettings: swiftSettings
        ),
        // CloudKit's schema language: parsed, printed, checked and compared.
        .target(
            name: "CloudSeedSchema",
            dependencies: ["CloudSeedCore"],
            swiftSettings: swiftSettings
        ),
        // CloudKit Web Services' formats: record dictionaries, field values, zoneIDs, error codes,
        // answers and the server-to-server signature, for export, backup, serve, push and pull alike.
        .target(
            name: "CloudKitWire",
            dependencies: ["CloudSeedCore", "CloudSeedReaders", .product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: swiftSettings
        ),
        // An app's Core Data or SwiftData model (read with libxml2 and swift-syntax) as CloudKit sees it.
        .target(
            name: "CloudSeedAppModel",
            dependencies: [
                "CloudSeedCore", "CloudSeedSchema", "CLibXML2",
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftParser", package: "swift-syntax"),
            ],
            swiftSettings: swiftSettings
        ),
        // The container stores, SQLite and PostgreSQL: records, schemas, queries and changes kept.
        .target(
            name: "CloudSeedStore",
            dependencies: [
                "CloudSeedCore", "CloudSeedReaders", "CloudSeedSchema", "CloudKitWire", "CSQLite", "CPostgres",
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "CloudSeed",
            dependencies: [
                "CloudSeedCore", "CloudSeedReaders", "CloudSeedSchema", "CloudKitWire", "CloudSeedStore",
                "CloudSeedAppModel", .product(name: "Yams", package: "Yams"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: swiftSettings
        ),
        // CloudKit Web Services over a store; its own target so the library does not pull in a server.
        .target(
            name: "CloudSeedServer",
            dependencies: [
                "CloudSeed", "CloudKitWire",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: swiftSettings
        ),
        // A CloudKit Web Services client (push, pull); its own target so the library does no networking.
        .target(
            name: "CloudSeedClient",
            dependencies: [
                "CloudSeed", "CloudKitWire", .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "cloudseed",
            dependencies: [
                "CloudSeed",
                "CloudSeedClient",
                "CloudSeedServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "cloudseed-fuzz",
            // The parsers alone: the fuzzing build (sanitized, release) leaves the rest of the library out.
            dependencies: ["CloudSeedReaders", "CloudSeedSchema"],
            path: "Fuzz/Sources",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "CloudSeedTestSupport",
            dependencies: ["CloudSeed"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "CloudSeedTests",
            dependencies: ["CloudSeed", "CloudSeedTestSupport", .product(name: "Crypto", package: "swift-crypto")],
            exclude: ["AppModel/Schemas"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "CloudSeedServerTests",
            dependencies: [
                "CloudSeed", "CloudSeedClient", "CloudSeedServer", "CloudSeedTestSupport", "cloudseed",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird"), .product(name: "Yams", package: "Yams"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "CloudSeedCLITests",
            dependencies: ["CloudSeedTestSupport", "cloudseed"],
            exclude: ["HelpSnapshots"],
            swiftSettings: swiftSettings
        ),
    ]
)
