import CloudSeedTestSupport
import Foundation
import Testing

/// `push` and `pull` against `cloudseed serve`, run as a user runs them.
@Suite struct PushCommandTests {
    static let container = "iCloud.com.example.Gallery"
    let folder: TemporaryFolder
    /// The PEM files of a server-to-server key pair.
    let privateKey: String
    let publicKey: String

    init() throws {
        folder = try TemporaryFolder()
        privateKey = folder.path("eckey.pem")
        publicKey = folder.path("eckey-public.pem")
        try Self.openssl(["ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", privateKey])
        try Self.openssl(["ec", "-in", privateKey, "-pubout", "-out", publicKey])
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: privateKey)
    }

    static func openssl(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["openssl"] + arguments
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }

    func run(_ arguments: [String]) throws -> CommandResult {
        try CommandRunner.run(arguments, in: folder.url)
    }

    func export(_ store: String) throws -> String {
        let result = try run(["export", "--store", store, "--container", Self.container, "--format", "jsonl"])
        #expect(result.status == 0)
        return result.standardOutput
    }

    /// `export` with each record's times masked, which a server sets when it saves.
    static func maskingTimes(_ export: String) -> String {
        export.replacing(/"timestamp":-?[0-9]+/, with: "\"timestamp\":0")
    }

    /// Makes `store` hold the schema of `local.sqlite` with each type's recordName QUERYABLE, as a
    /// developer deploys it before fetching a public database with records/query.
    func deploySchema(to store: String, container: String = Self.container) throws {
        let schema = try run(["schema", "export", "--store", "local.sqlite", "--container", container])
        #expect(schema.status == 0)
        let indexed = schema.standardOutput.replacing(/("___recordID" +REFERENCE),/) { "\($0.1) QUERYABLE," }
        try folder.write("deployed.ckdb", indexed)
        let imported = try run(["schema", "import", "deployed.ckdb", "--store", store, "--container", container])
        #expect(imported.status == 0)
    }

    @Test func pushesTheGalleryToServeAndPullsItBackTheSame() throws {
        #expect(try run(["seed", Repository.sample("gallery.json"), "--store", "local.sqlite"]).status == 0)
        try deploySchema(to: "served.sqlite")
        let server = try ServeProcess(
            ["--store", "served.sqlite", "--server-key", publicKey, "--server-key-id", "gallery-key"], in: folder.url)
        let remote = ["--endpoint", server.baseURL, "--container", Self.container]
        let push =
            ["push", "--store", "local.sqlite"] + remote + ["--key-id", "gallery-key", "--key-file", privateKey]

        let first = try run(push)
        #expect(first.standardError == "")
        #expect(
            first.standardOutput
                == "Pushed 11 records (4 assets, 0 zones created) in 9 requests, 0 tried again; 0 unchanged since the last push; 0 refused\n"
        )
        #expect(first.status == 0)
        let local = try export("local.sqlite")
        let served = try export("served.sqlite")
        #expect(local.split(separator: "\n").count == 11)
        #expect(Self.maskingTimes(served) == Self.maskingTimes(local))
        let servedAssets = try run([
            "export", "--store", "served.sqlite", "--container", Self.container, "--assets-out", "served-assets",
        ])
        #expect(servedAssets.status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path("served-assets")).count == 4)

        let second = try run(push)
        #expect(
            second.standardOutput
                == "Pushed 0 records (0 assets, 0 zones created) in 0 requests, 0 tried again; 11 unchanged since the last push; 0 refused\n"
        )
        #expect(try export("served.sqlite") == served)

        let pull =
            ["pull", "--store", "pulled.sqlite"] + remote + ["--key-id", "gallery-key", "--key-file", privateKey]
        let refused = try run(pull)
        #expect(refused.status == 1)
        #expect(
            refused.standardError
                == "error: CloudKit lists no record types, and the default zone's records are fetched with records/query, one record type at a time; name them with --type (once per type), or pull into a store that has the schema\n"
        )
        let types = ["--type", "Artist", "--type", "Artwork", "--type", "Person", "--type", "ToDoItem"]
        let pulled = try run(pull + types)
        #expect(
            pulled.standardOutput
                == "Pulled 11 records (4 assets) and 0 deletions from 1 zones in 9 requests, 0 tried again\n")
        #expect(try export("pulled.sqlite") == served)
        let backup = ["--container", Self.container]
        #expect(try run(["backup", "--store", "pulled.sqlite", "--out", "backup"] + backup).status == 0)
        #expect(try run(["restore", "backup", "--store", "restored.sqlite"]).status == 0)
        #expect(try export("restored.sqlite") == served)
        let deleted = try run(["delete", "ToDoItem", "Get apples", "--store", "served.sqlite"] + backup)
        #expect(deleted.status == 0)
        // The store now has the types: they are fetched again, and only what changed is saved.
        let again = try run(pull)
        #expect(
            again.standardOutput
                == "Pulled 0 records (0 assets) and 1 deletions from 1 zones in 5 requests, 0 tried again\n")
        #expect(try export("pulled.sqlite") == export("served.sqlite"))
        #expect(try export("pulled.sqlite").split(separator: "\n").count == 10)
    }

    @Test func aKeyForAnotherKeyIDIsRefusedAndNothingSecretIsPrinted() throws {
        #expect(try run(["seed", Repository.sample("gallery.json"), "--store", "local.sqlite"]).status == 0)
        let server = try ServeProcess(
            ["--store", "served.sqlite", "--server-key", publicKey, "--server-key-id", "gallery-key"], in: folder.url)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: privateKey)
        let result = try run(
            [
                "push", "--store", "local.sqlite", "--endpoint", server.baseURL, "--container", Self.container,
                "--key-id", "other-key", "--key-file", privateKey,
            ])
        #expect(result.status == 1)
        #expect(
            result.standardError
                == "warning: \(privateKey) can be read by other users; keep a private key to yourself with chmod 600 \(privateKey)\n"
                + "error: /database/1/\(Self.container)/development/public/assets/upload answered HTTP 401 AUTHENTICATION_FAILED: the key ID 'other-key' is not the one this server takes; check --key-id and --key-file, or --api-token\n"
        )
        let pem = try String(contentsOfFile: privateKey, encoding: .utf8)
        let keyBody = pem.split(separator: "\n")[1]
        #expect(!result.standardOutput.contains(keyBody) && !result.standardError.contains(keyBody))
    }

    @Test func anImportBesideAServerOfANewStoreIsNotKeptWaiting() throws {
        let server = try ServeProcess(["--store", "served.sqlite"], in: folder.url)
        let file = try folder.write("Artist.json", #"[{"recordName": "Mei Chen", "nationality": "Dutch"}]"#)
        #expect(try run(["import", file, "--store", "served.sqlite", "--quiet"]).status == 0)
        withExtendedLifetime(server) {}
    }

    @Test func aRecordChangedOnTheServerIsRefusedAsTheModeSays() throws {
        let container = ["--container", Self.container]
        #expect(try run(["seed", Repository.sample("gallery.json"), "--store", "local.sqlite"]).status == 0)
        // Signed with a server-to-server key, the push acts as the server's user, as the imports do.
        let server = try ServeProcess(["--store", "served.sqlite", "--server-key", publicKey], in: folder.url)
        let push =
            [
                "push", "--store", "local.sqlite", "--endpoint", server.baseURL, "--key-id", "conflict-key",
                "--key-file", privateKey,
            ] + container
        #expect(try run(push).status == 0)
        func change(_ store: String, nationality: String) throws {
            let file = try folder.write(
                "\(nationality).json",
                #"{"records": [{"recordName": "Mei Chen", "recordType": "Artist", "fields": {"nationality": {"value": "\#(nationality)"}}}]}"#
            )
            #expect(try run(["import", file, "--store", store, "--quiet"] + container).status == 0)
        }
        try change("served.sqlite", nationality: "Dutch")
        try change("local.sqlite", nationality: "French")

        let unchanged = try run(push + ["--mode", "update-if-unchanged"])
        #expect(unchanged.status == 1)
        #expect(
            unchanged.standardError.wholeMatch(
                of:
                    /refused: Mei Chen: CONFLICT: record was changed on the server: the recordChangeTag given is not '[0-9a-z]+'\n/
            ) != nil)
        #expect(unchanged.standardOutput.hasSuffix("10 unchanged since the last push; 1 refused\n"))
        let create = try run(push + ["--mode", "create", "--json"])
        #expect(create.status == 1)
        #expect(create.standardError == "refused: Mei Chen: EXISTS: record to insert already exists\n")
        #expect(
            create.standardOutput.contains(
                #""refused":[{"recordName":"Mei Chen","serverErrorCode":"EXISTS","reason":"record to insert already exists"}]"#
            ))
        let changedKeys = try run(push)
        #expect(changedKeys.status == 0)
        #expect(try export("served.sqlite").contains(#""nationality":{"value":"French","type":"STRING"}"#))
    }

    /// `local.sqlite` with the to-do items in the private zone Notes, and a serve of `served.sqlite`
    /// with the options that reach it as a signed-in user.
    func privateNotes() throws -> (server: ServeProcess, remote: [String]) {
        let imported = try run([
            "import", Repository.sample("ToDoItems/ToDoItems.csv"), "--store", "local.sqlite", "--database", "private",
            "--zone", "Notes",
        ])
        #expect(imported.status == 0)
        let server = try ServeProcess(["--store", "served.sqlite", "--api-token", "zone-token"], in: folder.url)
        return (
            server,
            [
                "--endpoint", server.baseURL, "--api-token", "zone-token", "--web-auth-token", "user-token",
                "--database", "private",
            ]
        )
    }

    @Test func aPrivateZoneIsCreatedOnTheServerAndPulledBack() throws {
        let (server, remote) = try privateNotes()
        let push = try run(["push", "--store", "local.sqlite"] + remote)
        #expect(
            push.standardOutput
                == "Pushed 3 records (0 assets, 1 zones created) in 3 requests, 0 tried again; 0 unchanged since the last push; 0 refused\n"
        )
        let pull = try run(["pull", "--store", "pulled.sqlite"] + remote)
        #expect(pull.standardOutput.hasPrefix("Pulled 3 records (0 assets) and 0 deletions from 1 zones"))
        #expect(
            pull.standardError
                == "warning: the default zone was left out: CloudKit lists no record types, and the default zone's records are fetched with records/query, one record type at a time; name them with --type (once per type)\n"
        )
        // Pulled again, the store has the types, but a private default zone still needs them named.
        let again = try run(["pull", "--store", "pulled.sqlite"] + remote)
        #expect(again.status == 0)
        #expect(again.standardError.hasPrefix("warning: the default zone was left out"))
        let named = try run(["pull", "--store", "pulled.sqlite", "--zone", "_defaultZone"] + remote)
        #expect(named.status == 1)
        #expect(
            named.standardError
                == "error: CloudKit lists no record types, and the default zone's records are fetched with records/query, one record type at a time; name them with --type (once per type)\n"
        )
        // The server keeps the zone under the signed-in user; the stores name it as their own.
        let inventory = try run(["inspect", "--store", "served.sqlite", "--json"]).standardOutput
        let owner = try #require(inventory.firstMatch(of: /"zoneName":"Notes","ownerRecordName":"(_[0-9a-f]{32})"/))
        func export(_ store: String, user: String = "__defaultOwner__") throws -> String {
            let text = try run([
                "export", "--store", store, "--database", "private", "--zone", "Notes", "--user", user, "--format",
                "jsonl",
            ]).standardOutput
            return text.replacing(/"(userRecordName|ownerRecordName)":"[^"]*"/) { #""\#($0.output.1)":"""# }
        }
        let served = try export("served.sqlite", user: String(owner.output.1))
        #expect(served.split(separator: "\n").count == 3)
        #expect(try export("pulled.sqlite") == served)
        #expect(Self.maskingTimes(served) == Self.maskingTimes(try export("local.sqlite")))
        withExtendedLifetime(server) {}
    }

    @Test func aPrivateZonePulledWithAWebAuthTokenIsTheCallersOwnZone() throws {
        let (server, remote) = try privateNotes()
        #expect(try run(["push", "--store", "local.sqlite"] + remote).status == 0)
        // The server keeps the zone under the token's user; the stores pulled into keep it as their own.
        #expect(try run(["pull", "--store", "pulled.sqlite"] + remote).status == 0)
        #expect(try run(["pull", "--store", "local.sqlite"] + remote).status == 0)
        func zones(_ store: String) throws -> [String] {
            let inventory = try run(["inspect", "--store", store, "--json"]).standardOutput
            return inventory.matches(of: /"zoneName":"([^"]*)","ownerRecordName":"([^"]*)"/).map {
                "\($0.output.2)/\($0.output.1)"
            }
        }
        #expect(try zones("pulled.sqlite") == ["__defaultOwner__/Notes"])
        #expect(try zones("local.sqlite") == ["__defaultOwner__/Notes"])
        let pulled = try run([
            "export", "--store", "pulled.sqlite", "--database", "private", "--zone", "Notes", "--format", "jsonl",
        ])
        #expect(pulled.standardOutput.split(separator: "\n").count == 3)
        withExtendedLifetime(server) {}
    }

    @Test func aPullOfThePublicDatabasePagesThroughEachTypeAndSavesOnlyWhatChanged() throws {
        let rows = (0..<450).map { "Item \($0),\($0 % 7)" }.joined(separator: "\n")
        try folder.write("items.csv", "title,priority\n" + rows + "\n")
        let container = ["--container", Self.container]
        let imported = try run(["import", "items.csv", "--type", "Item", "--store", "local.sqlite"] + container)
        #expect(imported.status == 0)
        try deploySchema(to: "served.sqlite")
        #expect(try run(["import", "items.csv", "--type", "Item", "--store", "served.sqlite"] + container).status == 0)
        let server = try ServeProcess(["--store", "served.sqlite", "--api-token", "query-token"], in: folder.url)
        let pull =
            [
                "pull", "--store", "pulled.sqlite", "--endpoint", server.baseURL, "--api-token", "query-token",
                "--type", "Item",
            ]
            + container
        let first = try run(pull)
        #expect(first.standardError == "")
        #expect(
            first.standardOutput
                == "Pulled 450 records (0 assets) and 0 deletions from 1 zones in 4 requests, 0 tried again\n")
        #expect(try export("pulled.sqlite") == export("served.sqlite"))
        let again = try run(pull)
        #expect(
            again.standardOutput
                == "Pulled 0 records (0 assets) and 0 deletions from 1 zones in 4 requests, 0 tried again\n")
    }

    @Test func aPullRefusedAtOnceLeavesNoStoreBehind() throws {
        let server = try ServeProcess(["--store", "served.sqlite", "--api-token", "right-token"], in: folder.url)
        let result = try run([
            "pull", "--store", "new.sqlite", "--endpoint", server.baseURL, "--api-token", "wrong-token",
        ])
        #expect(result.status == 1)
        #expect(
            result.standardError
                == "error: /database/1/iCloud.com.example.cloudseed/development/public/zones/list answered HTTP 401 AUTHENTICATION_FAILED: the API token is not valid; check --key-id and --key-file, or --api-token\n"
        )
        #expect(!FileManager.default.fileExists(atPath: folder.path("new.sqlite")))
    }

    @Test func resendSendsAgainWhatAServerThatWasResetLost() throws {
        #expect(
            try run(["import", Repository.sample("ToDoItems/ToDoItems.csv"), "--store", "local.sqlite"]).status == 0)
        let server = try ServeProcess(["--store", "served.sqlite", "--api-token", "token"], in: folder.url)
        let push = [
            "push", "--store", "local.sqlite", "--endpoint", server.baseURL, "--api-token", "token", "--web-auth-token",
            "user-token",
        ]
        #expect(try run(push).status == 0)
        // The server loses the records, as a development container does when it is reset.
        let names = ["Get apples", "Water the plants", "Call Zoe about the gallery"]
        #expect(try run(["delete", "ToDoItem"] + names + ["--store", "served.sqlite"]).status == 0)
        #expect(
            try run(push).standardOutput
                == "Pushed 0 records (0 assets, 0 zones created) in 0 requests, 0 tried again; 3 unchanged since the last push; 0 refused\n"
        )
        #expect(
            try run(push + ["--resend"]).standardOutput
                == "Pushed 3 records (0 assets, 0 zones created) in 1 requests, 0 tried again; 0 unchanged since the last push; 0 refused\n"
        )
        let served = try run(["export", "--store", "served.sqlite", "--format", "jsonl"]).standardOutput
        #expect(served.split(separator: "\n").count == 3)
        #expect(
            try run(push).standardOutput
                == "Pushed 0 records (0 assets, 0 zones created) in 0 requests, 0 tried again; 3 unchanged since the last push; 0 refused\n"
        )
    }

    @Test func aTypeTheStoreLacksIsRefusedBeforeAnythingIsSent() throws {
        #expect(
            try run(["import", Repository.sample("ToDoItems/ToDoItems.csv"), "--store", "local.sqlite"]).status == 0)
        let result = try run([
            "push", "--store", "local.sqlite", "--endpoint", "http://127.0.0.1:1", "--api-token", "token",
            "--web-auth-token", "user-token", "--type", "ToDoItems",
        ])
        #expect(result.status == 1)
        #expect(
            result.standardError
                == "error: the store has no record type ToDoItems in iCloud.com.example.cloudseed development; its types are ToDoItem; check --type\n"
        )
    }

    @Test func refusesATokenInTheEndpointURL() throws {
        let result = try run(["push", "--endpoint", "https://example.com/?ckAPIToken=secret", "--api-token", "secret"])
        #expect(result.status == 64)
        #expect(
            result.standardError.hasPrefix(
                "Error: --endpoint must not carry a query or a user: give tokens with --api-token and --web-auth-token\n"
            ))
        #expect(result.standardError.components(separatedBy: "secret").count == 1)
    }

    @Test func thePrivateAndSharedDatabasesNeedASignedInUser() throws {
        for command in ["push", "pull"] {
            for database in ["private", "shared"] {
                let keyed = try run([
                    command, "--database", database, "--key-id", "gallery-key", "--key-file", privateKey,
                ])
                #expect(keyed.status == 64)
                #expect(
                    keyed.standardError.hasPrefix(
                        "Error: a server-to-server key reaches the public database only; for the \(database) database give --api-token with --web-auth-token\n"
                    ))
                let anonymous = try run([command, "--database", database, "--api-token", "token"])
                #expect(anonymous.status == 64)
                #expect(
                    anonymous.standardError.hasPrefix(
                        "Error: the \(database) database needs a signed-in user: give --web-auth-token with --api-token\n"
                    ))
            }
        }
        // Writing needs a user in the public database too; reading does not.
        let publicWrite = try run(["push", "--api-token", "token"])
        #expect(publicWrite.status == 64)
        #expect(
            publicWrite.standardError.hasPrefix(
                "Error: writing to the public database needs a signed-in user: give --web-auth-token with --api-token, or a server-to-server key with --key-id and --key-file\n"
            ))
    }

    @Test func aServerWhoseCertificateIsNotTrustedIsRefusedWithoutTryingAgain() throws {
        #expect(
            try run(["import", Repository.sample("ToDoItems/ToDoItems.csv"), "--store", "local.sqlite"]).status == 0)
        try Self.openssl([
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout",
            folder.path("tls-key.pem"), "-out", folder.path("tls-cert.pem"), "-days", "2", "-subj", "/CN=localhost",
        ])
        let server = Process()
        server.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        server.arguments = [
            "openssl", "s_server", "-accept", "127.0.0.1:0", "-cert", folder.path("tls-cert.pem"), "-key",
            folder.path("tls-key.pem"), "-www",
        ]
        try folder.write("s_server.out", "")
        server.standardInput = FileHandle.nullDevice
        server.standardOutput = try FileHandle(forWritingTo: folder.url.appendingPathComponent("s_server.out"))
        server.standardError = FileHandle.nullDevice
        try server.run()
        defer {
            // SIGKILL: the process inherits the test runner's blocked signals, SIGTERM among them.
            kill(server.processIdentifier, SIGKILL)
            server.waitUntilExit()
        }
        // It prints "ACCEPT 127.0.0.1:PORT" once it listens.
        var port: Substring?
        for _ in 0..<500 where port == nil {
            let text = try String(contentsOf: folder.url.appendingPathComponent("s_server.out"), encoding: .utf8)
            port = text.firstMatch(of: /ACCEPT 127\.0\.0\.1:([0-9]+)\n/)?.output.1
            if port == nil { Thread.sleep(forTimeInterval: 0.02) }
        }
        let listening = try #require(port, "openssl s_server did not say where it listens")
        let push = try run([
            "push", "--store", "local.sqlite", "--endpoint", "https://127.0.0.1:\(listening)", "--api-token", "token",
            "--web-auth-token", "user-token",
        ])
        #expect(push.status == 1)
        #expect(
            push.standardError
                == "error: /database/1/iCloud.com.example.cloudseed/development/public/records/modify: the TLS handshake failed (CERTIFICATE_VERIFY_FAILED); check --endpoint and that the server is up\n"
        )
    }

    @Test func aDryRunPrintsWhatWouldBeSentAndSendsNothing() throws {
        #expect(
            try run(["import", Repository.sample("ToDoItems/ToDoItems.csv"), "--store", "local.sqlite"]).status == 0)
        let result = try run([
            "push", "--store", "local.sqlite", "--container", "iCloud.com.example.cloudseed", "--dry-run",
        ])
        #expect(result.status == 0)
        #expect(
            result.standardOutput == """
                forceUpdate ToDoItem Get apples in _defaultZone
                forceUpdate ToDoItem Water the plants in _defaultZone
                forceUpdate ToDoItem Call Zoe about the gallery in _defaultZone
                Would send 3 records; 0 unchanged since the last push

                """)
        let json = try run(["push", "--store", "local.sqlite", "--dry-run", "--json"])
        #expect(json.status == 0)
        #expect(
            json.standardOutput
                == #"{"wouldSend":[{"operationType":"forceUpdate","recordType":"ToDoItem","recordName":"Get apples","zoneName":"_defaultZone","assets":0},{"operationType":"forceUpdate","recordType":"ToDoItem","recordName":"Water the plants","zoneName":"_defaultZone","assets":0},{"operationType":"forceUpdate","recordType":"ToDoItem","recordName":"Call Zoe about the gallery","zoneName":"_defaultZone","assets":0}],"unchanged":0}"#
                + "\n")
        let withoutCredentials = try run(["push", "--store", "local.sqlite"])
        #expect(withoutCredentials.status == 64)
        #expect(
            withoutCredentials.standardError.hasPrefix(
                """
                Error: give a server-to-server key with --key-id and --key-file, or an API token with --api-token
                Usage: cloudseed push <options>
                """))
    }
}

/// A push killed part way through goes on where it stopped, each record saved once.
@Suite struct PushResumeTests {
    @Test func aPushKilledWithSIGKILLAndRunAgainSavesEachRecordOnce() throws {
        let folder = try TemporaryFolder()
        let count = 100_000
        let rows = (0..<count).map { "Item \($0),\($0 % 7),note \($0)" }.joined(separator: "\n")
        try folder.write("items.csv", "title,priority,note\n" + rows + "\n")
        let imported = try CommandRunner.run(
            ["import", "items.csv", "--type", "Item", "--store", "local.sqlite", "--quiet"], in: folder.url)
        #expect(imported.status == 0)
        let server = try ServeProcess(["--store", "served.sqlite", "--api-token", "resume-token"], in: folder.url)
        let push = [
            "push", "--store", "local.sqlite", "--endpoint", server.baseURL, "--api-token", "resume-token",
            "--web-auth-token", "user-token",
        ]

        let process = Process()
        process.executableURL = CommandRunner.productsFolder.appendingPathComponent("cloudseed")
        process.arguments = push + ["--quiet"]
        process.currentDirectoryURL = folder.url
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        var served = 0
        // Killed once some batches are confirmed: the journal then holds records to go on from.
        while served < 5_000 && process.isRunning {
            Thread.sleep(forTimeInterval: 0.2)
            served = try Self.servedRecords(in: folder)
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)
        let atKill = try Self.servedRecords(in: folder)
        #expect(atKill > 0 && atKill < count)

        let again = try CommandRunner.run(push + ["--json"], in: folder.url)
        #expect(again.status == 0)
        let summary = again.standardOutput
        let unchanged = try #require(summary.firstMatch(of: /"unchanged":(\d+)/).flatMap { Int($0.1) })
        let sent = try #require(summary.firstMatch(of: /"sent":(\d+)/).flatMap { Int($0.1) })
        // The journal may lag the server by the batches in flight: eight of 200 records.
        #expect(unchanged >= atKill - 1_600 && unchanged > 0)
        #expect(sent + unchanged == count)

        let export = try CommandRunner.run(["export", "--store", "served.sqlite", "--format", "jsonl"], in: folder.url)
        let lines = export.standardOutput.split(separator: "\n")
        #expect(lines.count == count)
        #expect(Set(lines.map { $0.firstMatch(of: /"recordName":"([^"]+)"/)!.1 }).count == count)
        // Each save takes the next change tag: none above the count is each record saved once.
        let tags = lines.compactMap { Int($0.firstMatch(of: /"recordChangeTag":"([0-9a-z]+)"/)!.1, radix: 36) }
        #expect(tags.max() == count)
    }

    /// How many records `cloudseed inspect` counts in the served store.
    static func servedRecords(in folder: TemporaryFolder) throws -> Int {
        let inspect = try CommandRunner.run(["inspect", "--store", "served.sqlite"], in: folder.url)
        return inspect.standardOutput.firstMatch(of: /Item: (\d+) record/).flatMap { Int($0.1) } ?? 0
    }
}
