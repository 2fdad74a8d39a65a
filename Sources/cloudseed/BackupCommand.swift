import ArgumentParser
import CloudSeed
import Foundation

struct BackupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Back up a container: its schemas, records and assets, with checksums.",
        discussion: """
            Writes a folder with manifest.json (counts, sizes and SHA-256 of every file), schema/<environment>.ckdb, \
            records/<environment>/<database>/<owner>/<zone>/<RecordType>.jsonl (CloudKit JSON Lines) and \
            assets/<sha256>. The folder is written beside --out and renamed into place when complete, so a \
            failed or interrupted backup leaves an earlier backup there as it was.

            Examples:
              cloudseed backup --out backups/gallery
              cloudseed backup --container iCloud.com.example.Gallery --out backups/gallery
            """
    )

    @OptionGroup var storeLocation: StoreLocationOption

    @Option(help: ArgumentHelp("The container to back up.", valueName: "id"))
    var container = StoreScope.defaultContainer

    @Option(help: ArgumentHelp("The backup folder; an earlier backup there is replaced.", valueName: "dir"))
    var out: String

    func run() throws {
        try reportingErrors(writes: false) {
            let manifest = try BackupWriter(store: try storeLocation.open(mustExist: true), container: container).write(
                to: out)
            print("Backed up \(container) into \(out): \(manifest.summary)")
        }
    }
}
