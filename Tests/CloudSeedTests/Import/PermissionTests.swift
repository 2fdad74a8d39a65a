import CloudSeedTestSupport
import Foundation
import Testing

@testable import CloudSeed
@testable import CloudSeedCore
@testable import CloudSeedReaders
@testable import CloudSeedSchema
@testable import CloudSeedStore

@Suite struct PermissionTests {
    let folder: TemporaryFolder
    let store: SQLiteContainerStore

    init() throws {
        folder = try TemporaryFolder()
        store = try SQLiteContainerStore(path: folder.path("store.sqlite"))
    }

    func importing(_ csv: String, as user: String) throws -> ImportSummary {
        try Importer(store: ContainerStore(backend: store), scope: StoreScope(), userRecordName: user, now: 0).run([
            SourceFile(path: folder.write("Post.csv", csv))
        ])
    }

    @Test func justInTimeTypesLetOnlyTheCreatorChangeARecord() throws {
        _ = try importing("recordName,text\np1,Hello\n", as: "_alice")
        #expect(throws: CloudSeedError.self) { _ = try importing("recordName,text\np1,Hijacked\n", as: "_bob") }
        #expect(try importing("recordName,text\np2,Mine\n", as: "_bob").counts.map(\.created) == [1])
        #expect(try importing("recordName,text\np1,Edited\n", as: "_alice").counts.map(\.updated) == [1])
    }

    @Test func savingARecordUnchangedStillNeedsWrite() throws {
        _ = try importing("recordName,text\np1,Hello\np2,Bye\n", as: "_alice")
        #expect(try importing("recordName,text\np1,Hello\np2,Bye\n", as: "_alice").counts.map(\.unchanged) == [2])
        #expect(
            errorMessages { _ = try importing("recordName,text\np1,Hello\np2,Bye\n", as: "_bob") } == [
                "\(folder.path("Post.csv")):2:1: WRITE operation not permitted: user _bob may not change record 'p1' of type Post; the schema grants it to _creator: act as such a user (Importer.userRecordName) or give the user a role with a role assignment",
                "\(folder.path("Post.csv")):3:1: WRITE operation not permitted: user _bob may not change record 'p2' of type Post; the schema grants it to _creator: act as such a user (Importer.userRecordName) or give the user a role with a role assignment",
            ])
        var definition = try store.schemaDefinition(of: StoreScope().schemaScope)
        var post = try #require(definition.recordType(named: "Post"))
        post.grants = [Grant([.read], to: .world), Grant([.create], to: .icloud)]
        definition.recordTypes.append(post)
        try store.write { try $0.applySchema(definition, to: StoreScope().schemaScope) }
        #expect(
            errorMessages { _ = try importing("recordName,text\np1,Hello\n", as: "_alice") } == [
                "\(folder.path("Post.csv")):2:1: WRITE operation not permitted: user _alice may not change record 'p1' of type Post; the schema grants WRITE to no role"
            ])
    }

    @Test func customRolesGrantWrites() throws {
        _ = try importing("recordName,text\np1,Hello\n", as: "_alice")
        var definition = try store.schemaDefinition(of: StoreScope().schemaScope)
        definition.roles = ["moderator"]
        var post = try #require(definition.recordType(named: "Post"))
        post.grants.append(Grant([.write], to: "moderator"))
        definition.recordTypes.append(post)
        try store.write { try $0.applySchema(definition, to: StoreScope().schemaScope) }
        #expect(
            throws: CloudSeedError(
                .invalidOption,
                "the development schema of iCloud.com.example.cloudseed has no role 'admin'; add CREATE ROLE admin; to the schema and run a schema import"
            )
        ) {
            try store.assignRole("admin", to: "_carol", in: StoreScope().schemaScope)
        }
        #expect(throws: CloudSeedError.self) { _ = try importing("recordName,text\np1,Moderated\n", as: "_carol") }
        try store.assignRole("moderator", to: "_carol", in: StoreScope().schemaScope)
        #expect(try importing("recordName,text\np1,Moderated\n", as: "_carol").counts.map(\.updated) == [1])
    }

    @Test func queriesReturnOnlyWhatTheUserMayRead() throws {
        _ = try importing("recordName,text\np1,Hello\n", as: "_alice")
        var definition = try store.schemaDefinition(of: StoreScope().schemaScope)
        var post = try #require(definition.recordType(named: "Post"))
        post.grants = [Grant([.read, .write], to: .creator), Grant([.create], to: .icloud)]
        post.fields = post.fields.map { field in
            var field = field
            if field.name == "___recordID" { field.options = [.queryable] }
            return field
        }
        definition.recordTypes.append(post)
        try store.write { try $0.applySchema(definition, to: StoreScope().schemaScope) }
        var query = RecordQuery(recordType: "Post")
        query.user = "_alice"
        #expect(try store.query(query, in: StoreScope()).count == 1)
        query.user = "_bob"
        #expect(try store.query(query, in: StoreScope()).isEmpty)
    }
}
