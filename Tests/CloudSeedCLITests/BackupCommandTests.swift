import CloudSeedTestSupport
import Foundation
import Testing

@Suite
struct BackupCommandTests {

    let folder: TemporaryFolder

    init() throws { folder = try TemporaryFolder() }

    func cloudseed(_ arguments: String...) throws -> CommandResult {
        try CommandRunner.run(arguments, in: folder.url)
    }

    /// A store with every field type, assets, and zones in two databases.
    func fillStore(_ store: String = "cloudseed.sqlite") throws {
        let imports = [
            ["import", Repository.sample("CloudKit/AllTypes.json"), "--allow-dangling"],
            ["import", Repository.sample("Gallery/artists.csv"), Repository.sample("Gallery/artworks.plist")],
            [
                "import", Repository.sample("ToDoItems/ToDoItems.plist"), "--database", "private", "--zone", "Work",
                "--user", "_alice",
            ],
        ]
        for arguments in imports {
            #expect(try CommandRunner.run(arguments + ["--store", store], in: folder.url).status == 0)
        }
    }

    func files(_ bundle: String) throws -> [String: Data] {
        var files: [String: Data] = [:]
        let root = folder.url.appendingPathComponent(bundle)
        let enumerator = FileManager.default.enumerator(atPath: root.path)
        while let path = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(
                atPath: root.appendingPathComponent(path).path, isDirectory: &isDirectory), !isDirectory.boolValue
            {
                files[path] = try Data(contentsOf: root.appendingPathComponent(path))
            }
        }
        return files
    }

    @Test func backupRestoreBackupGivesTheSameFiles() throws {
        try fillStore()
        let backup = try cloudseed("backup", "--out", "first")
        #expect(backup.standardError == "")
        #expect(
            backup.standardOutput
                == "Backed up iCloud.com.example.cloudseed into first: 12 records in 2 zones, 4 assets\n")
        let restore = try cloudseed("restore", "first", "--store", "restored.sqlite")
        #expect(restore.status == 0)
        #expect(
            restore.standardOutput
                == "Restored first into iCloud.com.example.cloudseed in restored.sqlite: 12 records in 2 zones, 4 assets\n"
        )
        #expect(try cloudseed("backup", "--store", "restored.sqlite", "--out", "second").status == 0)
        var first = try files("first")
        var second = try files("second")
        let created = try Regex(#""created":"[^"]*""#)
        let firstManifest = String(decoding: first.removeValue(forKey: "manifest.json") ?? Data(), as: UTF8.self)
        let secondManifest = String(decoding: second.removeValue(forKey: "manifest.json") ?? Data(), as: UTF8.self)
        #expect(first == second)
        #expect(first.count == 10)
        #expect(firstManifest.replacing(created, with: "") == secondManifest.replacing(created, with: ""))
        #expect(
            try cloudseed("export", "--format", "jsonl").standardOutput
                == cloudseed("export", "--format", "jsonl", "--store", "restored.sqlite").standardOutput)
    }

    @Test func aDamagedBundleIsRefusedAndNoStoreIsMade() throws {
        try fillStore()
        _ = try cloudseed("backup", "--out", "backup")
        let artworks = "records/development/public/__defaultOwner__/_defaultZone/Artwork.jsonl"
        let file = folder.url.appendingPathComponent("backup/\(artworks)")
        var data = try Data(contentsOf: file)
        data[50] ^= 0x20
        try data.write(to: file)
        let result = try cloudseed("restore", "backup", "--store", "restored.sqlite")
        #expect(result.status == 1)
        #expect(result.standardOutput == "")
        #expect(
            result.standardError == """
                error: backup/\(artworks): checksum mismatch: the file was changed or damaged; restore from an intact backup
                error: nothing was written

                """)
        #expect(!FileManager.default.fileExists(atPath: folder.path("restored.sqlite")))
    }

    @Test func restoringOverRecordsNeedsMerge() throws {
        try fillStore()
        _ = try cloudseed("backup", "--out", "backup")
        let refused = try cloudseed("restore", "backup")
        #expect(refused.status == 1)
        #expect(
            refused.standardError == """
                error: the store already holds records of iCloud.com.example.cloudseed; restore into a new --store, or pass --merge to write the backup's records over them
                error: nothing was written

                """)
        #expect(try cloudseed("restore", "backup", "--merge").status == 0)
    }

    @Test func backupWithoutAStoreSaysSo() throws {
        let result = try cloudseed("backup", "--out", "backup")
        #expect(result.status == 1)
        #expect(
            result.standardError
                == "error: cloudseed.sqlite: there is no store here; import or seed something first, or name the store with --store\n"
        )
        #expect(!FileManager.default.fileExists(atPath: folder.path("cloudseed.sqlite")))
    }

    /// Acceptance 8: a backup killed half-way leaves the earlier backup as it was, and no half bundle in its place.
    @Test func aKilledBackupLeavesTheEarlierOneIntact() throws {
        let rows = (0..<3000).map { "r\($0),\(String(repeating: "x", count: 2000)),\($0)" }
        try folder.write("big.csv", "recordName,body,count\n" + rows.joined(separator: "\n") + "\n")
        try fillStore()
        _ = try cloudseed("backup", "--out", "backup")
        let before = try files("backup")
        #expect(try cloudseed("import", "big.csv").status == 0)

        let process = Process()
        process.executableURL = CommandRunner.productsFolder.appendingPathComponent("cloudseed")
        process.arguments = ["backup", "--out", "backup"]
        process.currentDirectoryURL = folder.url
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(30)
        while process.isRunning, Date() < deadline, try !isWritingRecords() { usleep(500) }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)
        #expect(try files("backup") == before)
        let entries = try FileManager.default.contentsOfDirectory(atPath: folder.url.path)
        #expect(!entries.contains { $0.hasPrefix("backup.previous-") })
        #expect(try cloudseed("restore", "backup", "--store", "check.sqlite").status == 0)
    }

    /// Whether a backup is half-way: its partial folder already holds records.
    func isWritingRecords() throws -> Bool {
        try FileManager.default.contentsOfDirectory(atPath: folder.url.path).contains { name in
            name.hasPrefix("backup.partial-") && FileManager.default.fileExists(atPath: folder.path("\(name)/records"))
        }
    }
}
