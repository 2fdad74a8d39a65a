import ArgumentParser
import CloudSeed

struct RestoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Restore a backup into a store, after verifying every file's checksum.",
        discussion: """
            The whole backup is verified first: a changed, missing or extra file is refused, naming it, \
            and nothing is written. The restore is one transaction. Into a container that already holds \
            records, pass --merge to write the backup's records over the store's.

            Examples:
              cloudseed restore backups/gallery --store restored.sqlite
              cloudseed restore backups/gallery --merge
            """
    )

    @Argument(help: ArgumentHelp("The backup folder.", valueName: "dir"))
    var folder: String

    @OptionGroup var storeLocation: StoreLocationOption

    @Option(help: ArgumentHelp("The container to restore into (default: the one backed up).", valueName: "id"))
    var container: String?

    @Flag(help: "Write the backup's records over those the container holds (all keys), instead of refusing.")
    var merge = false

    func run() throws {
        try reportingErrors {
            let bundle = try BackupBundle(verifying: folder)
            let target = try storeLocation.open()
            let manifest = try Restorer(store: target, container: container, merge: merge).restore(bundle)
            print(
                "Restored \(folder) into \(container ?? manifest.container) in \(target.location): \(manifest.summary)"
            )
        }
    }
}
