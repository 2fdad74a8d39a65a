import CloudSeedTestSupport
import Foundation
import Testing

/// Every command's `--help`, compared with the text checked in under `HelpSnapshots/`, so that a
/// change to what users read is made on purpose. `CLOUDSEED_UPDATE_SNAPSHOTS=1 swift test --filter
/// HelpSnapshotTests` writes the texts anew after such a change.
@Suite struct HelpSnapshotTests {
    static let commands: [[String]] = [
        [], ["import"], ["seed"], ["export"], ["backup"], ["restore"], ["query"], ["delete"],
        ["schema"], ["schema", "export"], ["schema", "import"], ["schema", "from-model"], ["schema", "validate"],
        ["schema", "diff"],
        ["schema", "promote"], ["role"], ["role", "assign"], ["inspect"], ["serve"], ["push"], ["pull"],
    ]

    static let folder = Repository.root.appendingPathComponent("Tests/CloudSeedCLITests/HelpSnapshots")

    @Test(arguments: commands) func helpIsAsCheckedIn(_ command: [String]) throws {
        let name = (["cloudseed"] + command).joined(separator: "-") + ".txt"
        let result = try CommandRunner.run(
            command + ["--help"], in: FileManager.default.temporaryDirectory, extraEnvironment: ["COLUMNS": "100"])
        #expect(result.status == 0)
        #expect(result.standardError == "")
        let snapshot = Self.folder.appendingPathComponent(name)
        if ProcessInfo.processInfo.environment["CLOUDSEED_UPDATE_SNAPSHOTS"] == "1" {
            try FileManager.default.createDirectory(at: Self.folder, withIntermediateDirectories: true)
            try Data(result.standardOutput.utf8).write(to: snapshot)
        }
        let expected = try String(contentsOf: snapshot, encoding: .utf8)
        #expect(result.standardOutput == expected, "\(name) differs; see the test's doc comment to update it")
    }
}
