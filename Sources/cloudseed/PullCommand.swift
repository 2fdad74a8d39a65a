import ArgumentParser
import CloudSeed
import CloudSeedClient
import Foundation

struct PullCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pull",
        abstract: "Fetch a CloudKit container's records into the store, for a backup or a local copy.",
        discussion: """
            Fetches each zone of the database with records/changes, page by page: records keep the
            server's change tags and times, asset files are downloaded, deletions are applied. Each
            zone's sync token is kept in the store, so the next pull fetches only what changed.
            Then cloudseed backup makes a verified backup of the container.

            Examples:
              cloudseed pull --store gallery-copy.sqlite --container iCloud.com.example.Gallery --key-id KEY_ID --key-file eckey.pem
              cloudseed pull --endpoint http://127.0.0.1:8787 --api-token secret && cloudseed backup --out today-backup
            """
    )

    @OptionGroup var storeLocation: StoreLocationOption

    @OptionGroup var cloudKit: CloudKitOptions

    @Option(help: ArgumentHelp("Pull only this zone.", valueName: "name"))
    var zone: String?

    @Flag(help: "Print the summary as JSON.")
    var json = false

    func run() async throws {
        try await reportingCloudKitErrors {
            var puller = RecordPuller(client: try cloudKit.client()) {
                ContainerStore(backend: try storeLocation.open())
            }
            puller.zoneName = zone
            let summary = try await puller.run()
            print(json ? summary.json : summary.text, terminator: "")
        }
    }
}
