import ArgumentParser
import CloudSeed
import CloudSeedClient
import Foundation

struct PullCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pull",
        abstract: "Fetch a CloudKit container's records into the store, for a backup or a local copy.",
        discussion: """
            Fetches each custom zone of the database with records/changes, page by page: records \
            keep the server's change tags and times, asset files are downloaded, deletions are \
            applied. Each zone's sync token is kept in the store, so the next pull fetches only what \
            changed. The default zone (the public database's only one) keeps no changes in \
            CloudKit: its records come from records/query, one record type at a time (--type, or \
            in the public database the types of the store's schema), which needs a QUERYABLE index \
            on each type's recordName; records the store has at the same change tag are left as \
            they are, and records the server no longer has are deleted. Without --type, a private \
            or shared database's default zone is left out. Then cloudseed backup makes a verified \
            backup of the container.

            Examples:
              cloudseed pull --store gallery-copy.sqlite --container iCloud.com.example.Gallery --type Artist --type Artwork --key-id KEY_ID --key-file eckey.pem
              cloudseed pull --endpoint http://127.0.0.1:8787 --api-token secret && cloudseed backup --out today-backup
            """
    )

    @OptionGroup var storeLocation: StoreLocationOption

    @OptionGroup var cloudKit: CloudKitOptions

    @Option(help: ArgumentHelp("Pull only this zone.", valueName: "name"))
    var zone: String?

    @Option(
        name: .customLong("type"),
        help: ArgumentHelp(
            "A record type of the default zone to fetch; repeat it for each. Without it, the public database's types in the store's schema.",
            valueName: "type"))
    var types: [String] = []

    @Flag(help: "Print the summary as JSON.")
    var json = false

    @Flag(help: "No progress count.")
    var quiet = false

    func validate() throws {
        try cloudKit.validateCredentialsGiven()
    }

    func run() async throws {
        try await reportingCloudKitErrors {
            var puller = RecordPuller(client: try cloudKit.client()) {
                try storeLocation.open()
            }
            puller.zoneName = zone
            puller.recordTypes = types
            let progress = !quiet && TerminalProgress.isAvailable ? TerminalProgress() : nil
            puller.progress = { progress?.update(records: $0) }
            puller.warning = { warning in
                progress?.finish()
                FileHandle.standardError.write(Data("warning: \(warning.withAdvice)\n".utf8))
            }
            let summary = try await puller.run()
            progress?.finish()
            print(json ? summary.json : summary.text, terminator: "")
        }
    }
}
