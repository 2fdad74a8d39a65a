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
        .executable(name: "cloudseed", targets: ["cloudseed"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
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
        .target(
            name: "CloudSeed",
            dependencies: ["CSQLite", "CPostgres", "CLibXML2", .product(name: "Yams", package: "Yams")],
            swiftSettings: swiftSettings,
            // ICU's transliteration interface (ICUTransliterator), from the library Foundation itself uses.
            linkerSettings: [.linkedLibrary("_FoundationICU", .when(platforms: [.linux]))]
        ),
        .executableTarget(
            name: "cloudseed",
            dependencies: [
                "CloudSeed",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "cloudseed-fuzz",
            dependencies: ["CloudSeed"],
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
            dependencies: ["CloudSeed", "CloudSeedTestSupport"],
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
