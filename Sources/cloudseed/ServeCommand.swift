import ArgumentParser
import CloudSeed
import CloudSeedServer
import Foundation

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the store over CloudKit Web Services, for the code you write against CloudKit.",
        discussion: """
            Answers POST /database/1/CONTAINER/ENVIRONMENT/DATABASE/records/query (and records/lookup, \
            records/modify, records/changes, zones/list, zones/lookup, zones/modify, changes/zone, \
            changes/database, users/current, users/caller, assets/upload, subscriptions/list, \
            subscriptions/lookup, subscriptions/modify, tokens/create, tokens/register) with the store's \
            records, by the same rules as the other commands; long-polled notifications at each token's \
            webcourierURL; a sign-in page at http://HOST:PORT/signin for the users of --api-token; and a \
            console at http://HOST:PORT/ in the browser. Stop it with Ctrl-C.

            Examples:
              cloudseed serve
              cloudseed serve --port 9000 --api-token secret
              cloudseed serve --api-token secret --users alice,bob
              cloudseed serve --server-key eckey-public.pem --server-key-id KEY_ID
            """
    )

    @Option(help: "The port to listen on.")
    var port = 8787

    @Option(help: "The address to listen on; the default takes requests from this machine only.")
    var host = "127.0.0.1"

    @OptionGroup var storeLocation: StoreLocationOption

    @Option(help: ArgumentHelp("Take requests that give this ckAPIToken (and ckWebAuthToken).", valueName: "token"))
    var apiToken: String?

    @Option(
        help: ArgumentHelp(
            "A PEM P-256 public key: take server-to-server requests signed by its private half.", valueName: "file"))
    var serverKey: String?

    @Option(
        name: .customLong("server-key-id"),
        help: ArgumentHelp("With --server-key: take only requests that give this key ID.", valueName: "id"))
    var serverKeyID: String?

    @Option(help: ArgumentHelp("The user requests act as where they name no one.", valueName: "name"))
    var user = RecordZoneID.defaultOwnerName

    @Option(
        help: ArgumentHelp(
            "With --api-token: the users the sign-in page offers, comma-separated (any name can sign in).",
            valueName: "names"))
    var users: String?

    func validate() throws {
        if serverKeyID != nil && serverKey == nil {
            throw ValidationError("--server-key-id goes with --server-key, the public key of that ID")
        }
    }

    func run() async throws {
        let server: CloudKitServer
        let location: String
        do {
            let key = try serverKey.map { path in
                guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
                    throw CloudSeedError(
                        .fileAccess, "cannot read the server key; check the path", at: SourcePosition(file: path))
                }
                return text
            }
            let store = try storeLocation.open()
            location = store.location
            server = try CloudKitServer(
                store: store, host: host, port: port, apiToken: apiToken,
                serverKey: key, serverKeyID: serverKeyID, user: user,
                users: users.map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } } ?? [])
        } catch let error as CloudSeedError {
            printError(error.described(wordingOptions: { $0.flag }))
            throw ExitCode(1)
        }
        let host = host
        try await server.run { port in
            FileHandle.standardOutput.write(
                Data("Serving \(location) on http://\(host):\(port) (CloudKit Web Services under /database/1/)\n".utf8))
        }
    }
}
