import ArgumentParser
import CloudSeed
import CloudSeedClient
import Foundation

/// The options of `push` and `pull`: which CloudKit database, and the credentials requests carry.
struct CloudKitOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The CloudKit Web Services address; for a cloudseed serve, as http://127.0.0.1:8787.",
            valueName: "url"))
    var endpoint = CloudKitDatabase.appleEndpoint.absoluteString

    @Option(help: ArgumentHelp("The container identifier.", valueName: "id"))
    var container = StoreScope.defaultContainer

    @Option(help: "The container environment: development or production.")
    var environment: ContainerEnvironment = .development

    @Option(help: "The database: public, private or shared.")
    var database: DatabaseScope = .public

    @Option(name: .customLong("key-id"), help: ArgumentHelp("The server-to-server key's ID.", valueName: "id"))
    var keyID: String?

    @Option(
        name: .customLong("key-file"),
        help: ArgumentHelp("The server-to-server key's EC private key, in PEM.", valueName: "file"))
    var keyFile: String?

    @Option(
        name: .customLong("api-token"),
        help: ArgumentHelp("An API token, instead of a server-to-server key.", valueName: "token"))
    var apiToken: String?

    @Option(
        name: .customLong("web-auth-token"),
        help: ArgumentHelp("A web auth token, with --api-token, to act as a signed-in user.", valueName: "token"))
    var webAuthToken: String?

    func validate() throws {
        guard let url = URL(string: endpoint), ["http", "https"].contains(url.scheme ?? ""), url.host != nil else {
            throw ValidationError("--endpoint must be an http or https URL, as https://api.apple-cloudkit.com")
        }
        if url.query != nil || url.user != nil || url.password != nil {
            throw ValidationError(
                "--endpoint must not carry a query or a user: give tokens with --api-token and --web-auth-token")
        }
        if (keyID == nil) != (keyFile == nil) {
            throw ValidationError("--key-id and --key-file go together: the key's ID and its private key")
        }
        if keyID != nil && apiToken != nil {
            throw ValidationError("give either --key-id with --key-file or --api-token, not both")
        }
        if webAuthToken != nil && apiToken == nil {
            throw ValidationError("--web-auth-token goes with --api-token")
        }
        // As on CloudKit: a user's own databases need the user signed in.
        if database != .public && keyID != nil {
            throw ValidationError(
                "a server-to-server key reaches the public database only; for the \(database.rawValue) database give --api-token with --web-auth-token"
            )
        }
        if database != .public && apiToken != nil && webAuthToken == nil {
            throw ValidationError(
                "the \(database.rawValue) database needs a signed-in user: give --web-auth-token with --api-token")
        }
    }

    var cloudKitDatabase: CloudKitDatabase {
        CloudKitDatabase(
            endpoint: URL(string: endpoint)!, container: container, environment: environment, database: database)
    }

    /// The client requests go through, with the credentials given; warns of a key file that
    /// others may read.
    func client() throws -> WebServicesClient {
        let credentials: CloudKitCredentials
        if let keyID, let keyFile {
            guard let pem = try? String(contentsOfFile: keyFile, encoding: .utf8) else {
                throw CloudSeedError(
                    .fileAccess, "cannot read the key file; check the path", at: SourcePosition(file: keyFile))
            }
            if let permissions = try? FileManager.default.attributesOfItem(atPath: keyFile)[.posixPermissions] as? Int,
                permissions & 0o077 != 0
            {
                FileHandle.standardError.write(
                    Data(
                        "warning: \(keyFile) can be read by other users; keep a private key to yourself with chmod 600 \(keyFile)\n"
                            .utf8))
            }
            credentials = try CloudKitCredentials.serverKey(id: keyID, pem: pem)
        } else if let apiToken {
            credentials = .apiToken(apiToken, webAuthToken: webAuthToken)
        } else {
            throw Self.noCredentials
        }
        return WebServicesClient(database: cloudKitDatabase, credentials: credentials)
    }

    /// Refuses a command that sends requests without a key or a token, before it does anything.
    func validateCredentialsGiven() throws {
        if keyID == nil && apiToken == nil { throw Self.noCredentials }
    }

    /// Refuses an API token without a user for a command that writes: as on CloudKit, writing
    /// even to the public database needs a signed-in user.
    func validateCredentialsWrite() throws {
        try validateCredentialsGiven()
        if apiToken != nil && webAuthToken == nil {
            throw ValidationError(
                "writing to the \(database.rawValue) database needs a signed-in user: give --web-auth-token with --api-token, or a server-to-server key with --key-id and --key-file"
            )
        }
    }

    private static let noCredentials = ValidationError(
        "give a server-to-server key with --key-id and --key-file, or an API token with --api-token")
}

/// Runs `body`, printing what the server, the network or the store refused as errors, and
/// exiting 1 on them.
func reportingCloudKitErrors(_ body: () async throws -> Void) async throws {
    do {
        try await body()
    } catch let error as ClientError {
        printError(error.withAdvice)
        throw ExitCode(1)
    } catch let error as CloudSeedError {
        for error in error.allErrors { printError(error.described(wordingOptions: { $0.flag })) }
        throw ExitCode(1)
    }
}

extension ClientError {
    /// The message, with the options that fix what failed.
    var withAdvice: String {
        switch code {
        case .unknownZone: message + "; check --zone"
        case .unknownScope: message + "; check --container, --environment, --database and --zone"
        case .unreachable: message + "; check --endpoint and that the server is up"
        case .notAuthenticated: message + "; check --key-id and --key-file, or --api-token"
        case .notJSON: message + "; check --endpoint"
        case .recordTypesNeeded: message + "; name them with --type (once per type)"
        case .recordTypesOrSchemaNeeded:
            message + "; name them with --type (once per type), or pull into a store that has the schema"
        case .refused, .unexpectedAnswer, .invalidKey: message
        }
    }
}
