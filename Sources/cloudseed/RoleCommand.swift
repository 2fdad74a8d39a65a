import ArgumentParser
import CloudSeed

struct RoleCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "role",
        abstract: "Give users the custom roles a schema creates; the public database checks grants against them.",
        subcommands: [Assign.self]
    )

    struct Assign: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Give a user a custom role.",
            discussion: "Example:\n  cloudseed role assign moderator _alice"
        )

        @Argument(help: "The role, as the schema's CREATE ROLE names it.")
        var role: String

        @Argument(help: "The user record name.")
        var user: String

        @OptionGroup var storeOptions: StoreOptions

        func run() throws {
            try reportingErrors {
                try storeOptions.openStore(mustExist: true).assignRole(
                    role, to: user, in: storeOptions.container, storeOptions.environment)
                print("\(user) has the role \(role) in \(storeOptions.container) \(storeOptions.environment.rawValue).")
            }
        }
    }
}
