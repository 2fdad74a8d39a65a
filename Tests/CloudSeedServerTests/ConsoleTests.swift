import CloudSeed
import CloudSeedServer
import CloudSeedTestSupport
import Foundation
import Testing

/// The console page in a real browser: Debian's headless Chromium, which runs the page's scripts.
@Suite struct ConsoleTests {
    static let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// The document Chromium holds once `url` has loaded and its scripts and requests are done.
    static func renderedDocument(_ url: String) async throws -> String {
        await HeadlessBrowser.turns.take()
        defer { Task { await HeadlessBrowser.turns.give() } }
        let profile = try TemporaryFolder()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: chromium!)
        process.arguments = [
            "--headless", "--no-sandbox", "--disable-gpu", "--user-data-dir=\(profile.url.path)",
            "--virtual-time-budget=10000", "--dump-dom", url,
        ]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        // Waited for without holding a thread: the server under test answers on the same threads.
        let finished: Void = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { _ in continuation.resume() }
            do { try process.run() } catch { continuation.resume(throwing: error) }
        }
        _ = finished
        return String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    }

    /// The record names of the rows of the console's record table.
    static func rows(_ document: String) -> [String] {
        guard let table = document.range(of: #"<table id="records">"#) else { return [] }
        let rest = document[table.upperBound...]
        let body = rest[..<(rest.range(of: "</table>")?.lowerBound ?? rest.endIndex)]
        return body.components(separatedBy: #"<tr data-record-name=""#).dropFirst().map {
            String($0.prefix { $0 != "\"" })
        }
    }

    @Test(.enabled(if: chromium != nil, "Debian's chromium is not installed; apt-get install chromium to run it"))
    func showsFiltersAndOpensTheGallerysArtworks() async throws {
        let folder = try RecordsQueryTests.seededGallery()
        let server = try CloudKitServer(store: ContainerStore(folder.path("cloudseed.sqlite")))
        try await RunningServer.with(server) { server in
            let artworks = server.baseURL + "/#c=iCloud.com.example.Gallery&e=development&d=public&type=Artwork"
            let all = try await Self.renderedDocument(artworks)
            #expect(Self.rows(all) == ["115 Mei Chen", "116 Mei Chen", "207 Zoe Muller", "308 Tomas Ortega"])
            #expect(all.contains("price</td><td>DOUBLE</td><td>QUERYABLE SORTABLE"))

            let filtered = try await Self.renderedDocument(artworks + "&filter=price,GREATER_THAN,1000&sort=-price")
            #expect(Self.rows(filtered) == ["207 Zoe Muller", "115 Mei Chen"])

            let opened = try await Self.renderedDocument(artworks + "&record=115+Mei+Chen")
            #expect(opened.contains(#"<div id="record" data-record-name="115 Mei Chen" data-change-tag=""#))
            #expect(
                opened.contains(
                    ##"<a href="#c=iCloud.com.example.Gallery&amp;e=development&amp;d=public&amp;type=Artwork&amp;record=Mei+Chen">Mei Chen</a>"##
                ))
            #expect(opened.contains(#"class="asset""#) && opened.contains(#"data-loaded="true""#))
            #expect(opened.contains("39.3048, -123.8038"))

            let schema = try await Self.renderedDocument(
                server.baseURL + "/#c=iCloud.com.example.Gallery&e=development&view=schema")
            #expect(schema.contains("RECORD TYPE Artwork ("))
        }
    }

    @Test(.enabled(if: chromium != nil, "Debian's chromium is not installed; apt-get install chromium to run it"))
    func showsACoreDataAppsRecordsInTheirZoneWithTheirLinks() async throws {
        let folder = try TemporaryFolder()
        let model = Repository.sample("TripPlanner/TripPlanner.xcdatamodeld")
        // With the public database's indexes: CloudKit queries a type only where ___recordID is QUERYABLE.
        for command in [
            ["schema", "from-model", model, "--database", "public", "--out", "schema.ckdb"],
            ["schema", "import", "schema.ckdb"],
            ["import", "--model", model, "--quiet"]
                + ["destinations.csv", "people.csv", "trips.json"].map { Repository.sample("TripPlanner/" + $0) },
        ] {
            let result = try CommandRunner.run(command, in: folder.url)
            try #require(result.status == 0, "\(result.standardError)")
        }
        let server = try CloudKitServer(store: ContainerStore(folder.path("cloudseed.sqlite")))
        try await RunningServer.with(server) { server in
            let trips =
                server.baseURL
                + "/#c=iCloud.com.example.cloudseed&e=development&d=private&z=com.apple.coredata.cloudkit.zone&type=CD_Trip&sort=CD_name"
            let all = try await Self.renderedDocument(trips)
            #expect(
                Self.rows(all) == [
                    "51522BDF-42AE-51CB-AE86-D27CC70DA94E", "6A216245-E493-5685-8CCC-5AA1A6B2C7FB",
                    "2AF54CC9-2BA2-5509-A1A8-5C907EB5BA1D",
                ])
            let opened = try await Self.renderedDocument(trips + "&record=2AF54CC9-2BA2-5509-A1A8-5C907EB5BA1D")
            #expect(
                opened.contains(
                    ##"<a class="link" href="#c=iCloud.com.example.cloudseed&amp;e=development&amp;d=private&amp;z=com.apple.coredata.cloudkit.zone&amp;type=CD_Trip&amp;sort=CD_name&amp;record=FA04DD34-0E88-52A3-AD9E-2EBAA8984401">FA04DD34-0E88-52A3-AD9E-2EBAA8984401</a>"##
                ))
        }
    }
}
