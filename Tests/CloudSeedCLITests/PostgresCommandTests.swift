import CloudSeedTestSupport
import Foundation
import Testing

/// The command line against a PostgreSQL store: every command as on SQLite, concurrent runs, a killed run.
@Suite(.enabled(if: TestPostgresServer.isAvailable, Comment(rawValue: TestPostgresServer.skipReason)))
struct PostgresCommandTests {
    let folder: TemporaryFolder

    init() throws { folder = try TemporaryFolder() }

    /// What a command printed and returned, with run times, record times and the store's name made alike.
    func run(_ arguments: [String], store: String, environment: [String: String] = [:]) throws -> String {
        let result = try CommandRunner.run(arguments, in: folder.url, extraEnvironment: environment)
        return normalised("\(result.status)\n\(result.standardOutput)\(result.standardError)", store: store)
    }

    func normalised(_ text: String, store: String? = nil) -> String {
        text.replacingOccurrences(of: store ?? "STORE", with: "STORE")
            .replacingOccurrences(of: #"in \d+\.\d+ s"#, with: "in S", options: .regularExpression)
            .replacingOccurrences(of: #""timestamp":\d+"#, with: #""timestamp":T"#, options: .regularExpression)
            .replacingOccurrences(of: #""created":"[^"]*""#, with: #""created":T"#, options: .regularExpression)
    }

    @Test func everyCommandGivesTheSameOutputOnBothBackends() throws {
        let database = try TestPostgresDatabase()
        let restored = try TestPostgresDatabase()
        let gallery = ["--container", "iCloud.com.example.Gallery"]
        let schema = try folder.write(
            "roles.ckdb",
            """
            DEFINE SCHEMA
                CREATE ROLE moderator;
                RECORD TYPE ToDoItem ("___recordID" REFERENCE QUERYABLE, dueDate TIMESTAMP SORTABLE, isCompleted INT64, title STRING SEARCHABLE);
            """)
        let commands: [[String]] = [
            ["seed", Repository.sample("gallery.json")],
            ["import", Repository.sample("ToDoItems/ToDoItems.csv")],
            ["role", "assign", "moderator", "_alice"],
            ["schema", "import", schema],
            ["role", "assign", "moderator", "_alice"],
            ["query", "ToDoItem", "--search", "apples", "--format", "jsonl"],
            ["query", "ToDoItem", "--sort", "dueDate", "--limit", "2"],
            ["export", "--format", "jsonl"] + gallery,
            ["export", "--format", "csv", "--type", "Artwork"] + gallery,
            ["schema", "export"] + gallery,
            ["query", "Artwork", "--filter", "price > 900", "--sort", "price", "--descending"] + gallery,
            ["query", "Artwork", "--search", "harbor", "--format", "jsonl"] + gallery,
            ["delete", "Artwork", "115 Mei Chen"] + gallery,
            ["inspect"],
            ["schema", "promote"],
            ["backup", "--out", "backup"] + gallery,
        ]
        var outputs: [String: [String]] = [:]
        for (backend, environment) in [("sqlite", [:]), ("postgres", ["CLOUDSEED_STORE": database.url])] {
            for command in commands {
                let arguments = command + (backend == "sqlite" ? ["--store", "cloudseed.sqlite"] : [])
                outputs[backend, default: []].append(
                    try run(
                        arguments, store: backend == "sqlite" ? "cloudseed.sqlite" : database.url,
                        environment: environment))
            }
            let bundle = try String(
                contentsOf: folder.url.appendingPathComponent(
                    "backup/records/development/public/__defaultOwner__/_defaultZone/Artwork.jsonl"), encoding: .utf8)
            outputs[backend, default: []].append(normalised(bundle))
            let target = backend == "sqlite" ? "restored.sqlite" : restored.url
            outputs[backend, default: []].append(try run(["restore", "backup", "--store", target], store: target))
            outputs[backend, default: []].append(
                try run(["export", "--format", "jsonl", "--store", target] + gallery, store: target))
        }
        let sqlite = try #require(outputs["sqlite"])
        // Only the first role assign fails: the schema has no role yet.
        #expect(sqlite.indices.filter { !sqlite[$0].hasPrefix("0\n") && sqlite[$0].first?.isNumber == true } == [2])
        #expect(
            sqlite[2] == """
                1
                error: the development schema of iCloud.com.example.cloudseed has no role 'moderator'; add CREATE ROLE moderator; to the schema and run cloudseed schema import
                error: nothing was written

                """)
        for (index, output) in (outputs["postgres"] ?? []).enumerated() {
            #expect(output == sqlite[index], "command \(index)")
        }
    }

    /// `count` rows of a record type of its own, as CSV.
    func rows(_ type: String, _ count: Int) throws -> String {
        try folder.write(
            "\(type).csv",
            "code,size,label\n" + (0..<count).map { "\(type)-\($0),\($0),label \($0 % 97)" }.joined(separator: "\n"))
    }

    @Test func twoRunsAtOnceBothCompleteWithExactCounts() throws {
        let database = try TestPostgresDatabase()
        let files = [try rows("Alpha", 30_000), try rows("Beta", 30_000)]
        let results = Locked<[Int32]>([])
        DispatchQueue.concurrentPerform(iterations: 2) { index in
            let status =
                (try? CommandRunner.run(["import", files[index], "--store", database.url, "--quiet"], in: folder.url)
                    .status) ?? -1
            results.withValue { $0.append(status) }
        }
        #expect(results.value == [0, 0])
        let inspect = try CommandRunner.run(["inspect", "--store", database.url], in: folder.url).standardOutput
        #expect(inspect.contains("    Alpha: 30000 records\n    Beta: 30000 records\n"))
    }

    @Test func aTextPostgreSQLCannotHoldIsRefusedWithItsRowAndNothingIsWritten() throws {
        let database = try TestPostgresDatabase()
        let file = try folder.write("Notes.csv", "title,copies\nHarbor,1\nDusk,2\nNul\u{0}Here,3\n")
        let result = try CommandRunner.run(["import", file, "--store", database.url], in: folder.url)
        #expect(result.status == 1)
        #expect(
            result.standardError == """
                error: \(file):4:1: PostgreSQL text cannot hold the character U+0000; remove it from the value, or use a SQLite store
                error: nothing was written

                """)
        #expect(
            try CommandRunner.run(["inspect", "--store", database.url], in: folder.url).standardOutput
                == "The store is empty.\n")
    }

    @Test func aKilledRunLeavesTheStoreAsItWas() throws {
        let database = try TestPostgresDatabase()
        #expect(
            try CommandRunner.run(["seed", Repository.sample("gallery.json"), "--store", database.url], in: folder.url)
                .status == 0)
        let export = [
            "export", "--format", "jsonl", "--container", "iCloud.com.example.Gallery", "--store", database.url,
        ]
        let before = try CommandRunner.run(export, in: folder.url).standardOutput
        let file = try rows("Artwork", 100_000)
        let process = Process()
        process.executableURL = CommandRunner.productsFolder.appendingPathComponent("cloudseed")
        process.arguments = [
            "import", file, "--container", "iCloud.com.example.Gallery", "--store", database.url, "--quiet",
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let copying =
            "SELECT 1 FROM pg_stat_activity WHERE datname = '\(database.databaseName)' AND query LIKE 'COPY %'"
        let deadline = Date().addingTimeInterval(300)
        while process.isRunning, Date() < deadline, try database.serverRows(copying).isEmpty { usleep(10_000) }
        #expect(process.isRunning, "the import ended before it was seen sending rows")
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)
        #expect(try CommandRunner.run(export, in: folder.url).standardOutput == before)
        let again = try CommandRunner.run(
            ["seed", Repository.sample("gallery.json"), "--store", database.url], in: folder.url)
        #expect(again.status == 0)
    }
}

/// A value shared between threads.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value

    init(_ value: Value) { stored = value }

    var value: Value { lock.withLock { stored } }

    func withValue(_ body: (inout Value) -> Void) { lock.withLock { body(&stored) } }
}
