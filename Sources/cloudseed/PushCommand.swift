import ArgumentParser
import CloudSeed
import CloudSeedClient
import Foundation

struct PushCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "push",
        abstract: "Send the store's records to a CloudKit container over CloudKit Web Services.",
        discussion: """
            Sends the records of one container environment's database (or of --zone, --type) in \
            records/modify batches of up to 200, asset files through assets/upload first, zones \
            created where missing; in development the server's just-in-time schema makes the types. \
            THROTTLED, TRY_AGAIN_LATER, ZONE_BUSY, HTTP 429 and 503 and lost connections are tried \
            again after the server's retryAfter. Each confirmed record is noted in the store, so a \
            push that stops goes on where it stopped and records sent as they are are not sent again \
            (--resend sends them all, as a container that was reset needs).

            Examples:
              cloudseed push --container iCloud.com.example.Gallery --key-id KEY_ID --key-file eckey.pem
              cloudseed push --endpoint http://127.0.0.1:8787 --api-token secret --dry-run

            Exit codes: 0 every record pushed; 1 the push stopped, or the server refused some records (the summary names them).
            """
    )

    @OptionGroup var storeLocation: StoreLocationOption

    @OptionGroup var cloudKit: CloudKitOptions

    @Option(help: ArgumentHelp("Push only this zone.", valueName: "name"))
    var zone: String?

    @Option(help: ArgumentHelp("Push only this record type.", valueName: "type"))
    var type: String?

    @Option(
        help:
            "How records the server has are written: create, update-if-unchanged (with the change tag the last push got), changed-keys or all-keys."
    )
    var mode: SaveMode = .changedKeys

    @Flag(
        help:
            "Send every record, also those sent as they are since the last push: after the container was reset, say."
    )
    var resend = false

    @Flag(name: .customLong("dry-run"), help: "Print what would be sent; send nothing.")
    var dryRun = false

    @Flag(help: "Print the summary, or with --dry-run what would be sent, as JSON.")
    var json = false

    @Flag(help: "No progress bar.")
    var quiet = false

    func validate() throws {
        if !dryRun { try cloudKit.validateCredentialsWrite() }
    }

    func run() async throws {
        try await reportingCloudKitErrors {
            let store = try storeLocation.open(mustExist: true)
            var pusher = RecordPusher(store: store, database: cloudKit.cloudKitDatabase)
            pusher.zoneName = zone
            pusher.recordType = type
            pusher.mode = mode
            pusher.resendsAll = resend
            if dryRun {
                let (records, unchanged) = try pusher.plan()
                if json {
                    print(
                        JSONText.object([
                            ("wouldSend", JSONText.array(records.map(\.json))), ("unchanged", String(unchanged)),
                        ]))
                } else {
                    for record in records { print(record.line) }
                    print("Would send \(records.count) records; \(unchanged) unchanged since the last push")
                }
                return
            }
            let client = try cloudKit.client()
            let progress = !quiet && TerminalProgress.isAvailable ? TerminalProgress() : nil
            pusher.progress = { progress?.update(records: $0, of: $1) }
            pusher.refused = { name, code, reason in
                progress?.finish()
                FileHandle.standardError.write(Data("refused: \(name): \(code): \(reason)\n".utf8))
            }
            let summary = try await pusher.run(through: client)
            progress?.finish()
            print(json ? summary.json : summary.text, terminator: "")
            if !summary.refused.isEmpty { throw ExitCode(1) }
        }
    }
}
