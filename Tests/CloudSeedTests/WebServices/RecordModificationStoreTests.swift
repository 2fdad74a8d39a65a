import CloudSeedTestSupport
import Testing

@testable import CloudSeed
@testable import CloudSeedCore
@testable import CloudSeedReaders
@testable import CloudSeedSchema
@testable import CloudSeedStore

/// `records/modify` over a store that several types, requests and connections share.
@Suite struct RecordModificationStoreTests {
    /// Applies a `records/modify` body's operations to `store`, each outcome as a line.
    func apply(_ operations: String, to store: ContainerStore, in scope: StoreScope = StoreScope()) throws -> [String] {
        let request = try ModifyRequest(parsing: Array(#"{"operations":[\#(operations)]}"#.utf8))
        return try RecordModification(scope: scope, user: "_me", now: 1).apply(request.operations ?? [], to: store)
            .map { outcome in
                switch outcome {
                case .saved(let record):
                    "saved \(record.recordType) \(record.recordID.recordName) \(record.sortedFieldNames)"
                case .deleted(let name): "deleted \(name)"
                case .refused(let name, let refusal): "refused \(name): \(refusal)"
                }
            }
    }

    func create(_ name: String, _ type: String, _ fields: String = "{}") -> String {
        #"{"operationType":"forceUpdate","record":{"recordName":"\#(name)","recordType":"\#(type)","fields":\#(fields)}}"#
    }

    @Test(arguments: BackendKind.testable) func aNameIsFoundWhicheverTypeHoldsIt(_ backend: BackendKind) throws {
        let testStore = try TestStore(backend)
        let store = ContainerStore(backend: try testStore.open())
        // `value` is also the name of the column the request's names are read from.
        _ = try apply(
            [
                create("Venus", "Sculpture", #"{"value":{"value":3}}"#), create("Rodin", "Artist"),
                create("Eve", "Sculpture"), create("Note", "Zebra"),
            ].joined(separator: ","), to: store)
        let found = try store.backend.write { transaction in
            try transaction.records(named: ["Rodin", "Venus", "Nobody", "Venus"], in: StoreScope())
        }
        #expect(found.map { "\($0.recordType) \($0.recordID.recordName)" } == ["Artist Rodin", "Sculpture Venus"])
        #expect(found.last?.fields == ["value": .int64(3)])
        // A later request meets the stored names of every type, not only the one it names.
        #expect(
            try apply(
                [create("Venus", "Artist"), create("Rodin", "Artist", #"{"born":{"value":1840}}"#)].joined(
                    separator: ","), to: store)
                == [
                    #"refused Venus: invalid(record 'Venus' is of type Sculpture, not Artist; a record name is unique in its zone)"#,
                    #"saved Artist Rodin ["born"]"#,
                ])
    }

    @Test func anotherConnectionsSchemaAndZoneChangesAreSeenByTheNextRequest() throws {
        let folder = try TemporaryFolder()
        let first = try ContainerStore(folder.path("store.sqlite"))
        let notes = StoreScope(database: .private, zoneID: RecordZoneID(zoneName: "Notes"))
        #expect(try apply(create("a", "Note", #"{"title":{"value":"A"}}"#), to: first, in: notes).count == 1)
        let second = try ContainerStore(folder.path("store.sqlite"))
        #expect(
            try apply(create("b", "Note", #"{"body":{"value":"B"}}"#), to: second, in: notes)
                == [#"saved Note b ["body"]"#])
        _ = try second.backend.write { try $0.deleteZone(notes) }
        // The first connection read the type and zone before: it finds the field and the zone anew.
        #expect(
            try apply(create("c", "Note", #"{"body":{"value":"C"},"title":{"value":"C"}}"#), to: first, in: notes)
                == [#"saved Note c ["body", "title"]"#])
        let zone = try #require(try second.backend.inventory().zones.first { $0.zoneID.zoneName == "Notes" })
        #expect(zone.recordCounts == ["Note": 1])
    }
}
