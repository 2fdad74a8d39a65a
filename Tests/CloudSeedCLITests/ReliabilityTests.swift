import CloudSeedTestSupport
import Foundation
import Testing

/// What happens to a store when runs are killed, run at once, or fed hostile names.
@Suite struct ReliabilityTests {
    /// A CSV of `rows` notes, big enough that an import takes a while.
    func bigCSV(in folder: TemporaryFolder, name: String = "Note.csv", rows: Int) throws -> String {
        var text = "key,title,count,when\n"
        text.reserveCapacity(rows * 48)
        for row in 0..<rows {
            text += "k\(row),Note number \(row),\(row % 97),2020-01-\(String(format: "%02d", 1 + row % 28))T10:00:00Z\n"
        }
        return try folder.write(name, text)
    }

    func sqlite(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/usr/bin/sqlite3"), "needs the sqlite3 command"))
    func aKilledImportLeavesTheStoreAsItWas() throws {
        let folder = try TemporaryFolder()
        _ = try CommandRunner.run(["import", Repository.sample("ToDoItems/ToDoItems.csv")], in: folder.url)
        let before = try CommandRunner.run(["export", "--format", "jsonl"], in: folder.url).standardOutput
        let csv = try bigCSV(in: folder, rows: 300_000)
        for delay in [0.3, 1.0, 2.0] {
            let process = Process()
            process.executableURL = CommandRunner.productsFolder.appendingPathComponent("cloudseed")
            process.arguments = ["import", csv, "--quiet"]
            process.currentDirectoryURL = folder.url
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            Thread.sleep(forTimeInterval: delay)
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            #expect(try CommandRunner.run(["export", "--format", "jsonl"], in: folder.url).standardOutput == before)
            #expect(try sqlite([folder.path("cloudseed.sqlite"), "PRAGMA integrity_check"]) == "ok\n")
        }
    }

    /// Into a store that exists, the first to open it writes through a rollback journal with the
    /// file locked, and the others open it meanwhile.
    @Test(arguments: [false, true]) func fourImportsAtOnceAllLand(intoAStoreThatExists: Bool) throws {
        let folder = try TemporaryFolder()
        if intoAStoreThatExists {
            _ = try CommandRunner.run(["import", Repository.sample("ToDoItems/ToDoItems.csv")], in: folder.url)
        }
        let files = try (1...4).map { try bigCSV(in: folder, name: "Kind\($0).csv", rows: 5_000 * $0) }
        let processes = try files.map { file -> (Process, Pipe) in
            let process = Process()
            process.executableURL = CommandRunner.productsFolder.appendingPathComponent("cloudseed")
            process.arguments = ["import", file, "--quiet", "--json"]
            process.currentDirectoryURL = folder.url
            let errors = Pipe()
            process.standardOutput = FileHandle.nullDevice
            process.standardError = errors
            try process.run()
            return (process, errors)
        }
        for (process, errors) in processes {
            let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "\(message)")
            #expect(!message.contains("locked"))
        }
        let inventory = try CommandRunner.run(["inspect"], in: folder.url).standardOutput
        for kind in 1...4 { #expect(inventory.contains("    Kind\(kind): \(5_000 * kind) records\n")) }
    }

    @Test func injectionShapedNamesAreRefusedAndNothingIsCreated() throws {
        let folder = try TemporaryFolder()
        let json = try folder.write(
            "evil.json",
            #"{"records": [{"recordType": "Artwork\"; DROP TABLE x; --", "recordName": "a", "fields": {}}]}"#)
        let result = try CommandRunner.run(["import", json], in: folder.url)
        #expect(result.status == 1)
        #expect(
            result.standardError == """
                error: \(json):1:14: the record type name 'Artwork"; DROP TABLE x; --' is refused: CloudKit identifiers start with a letter (a-z, A-Z) and hold only letters, digits and '_'; rename the type (at records[0])
                error: nothing was written

                """)
        #expect(!FileManager.default.fileExists(atPath: folder.path("cloudseed.sqlite")))
    }

    /// A zone name may hold any ASCII, as CloudKit's may: it is stored as a value, never as SQL.
    @Test func anInjectionShapedZoneNameIsKeptAsItIs() throws {
        let folder = try TemporaryFolder()
        let zone = "x'); DROP TABLE _cloudseed_zones; --\""
        let imported = try CommandRunner.run(
            ["import", Repository.sample("ToDoItems/ToDoItems.csv"), "--database", "private", "--zone", zone],
            in: folder.url)
        #expect(imported.status == 0)
        let exported = try CommandRunner.run(
            ["export", "--database", "private", "--zone", zone, "--format", "jsonl"], in: folder.url)
        #expect(exported.standardOutput.split(separator: "\n").count == 3)
        let inventory = try CommandRunner.run(["inspect"], in: folder.url).standardOutput
        #expect(
            inventory.contains("  private database, zone \(zone) (owner __defaultOwner__):\n    ToDoItem: 3 records\n"))
    }
}
