package import CloudKitWire
package import CloudSeedCore
package import CloudSeedSchema
package import Foundation

/// A container store: containers → environments → databases → zones → records, with a schema per
/// container environment. SQLite is the embedded implementation; the rules that are CloudKit's
/// (just-in-time schema, save modes) live above this protocol, so every backend behaves alike.
package protocol StoreBackend: StoredRecords {
    /// The schema of a container environment (empty if it has none yet).
    func schema(of scope: SchemaScope) throws -> Schema

    /// The whole schema of a container environment in the CloudKit Schema Language's terms:
    /// fields with their index options, grants and roles.
    func schemaDefinition(of scope: SchemaScope) throws -> SchemaDefinition

    /// The records of one type in a zone that `query` selects, in its order.
    func query(_ checked: CheckedQuery, in scope: StoreScope) throws -> [CloudRecord]

    /// Runs `body` as one transaction: everything it writes is kept, or nothing is. `bulk` says the
    /// transaction writes many records (an import, a restore), which a store may write another way.
    func write<T>(bulk: Bool, _ body: (any StoreTransaction) throws -> T) throws -> T

    /// Runs `body` as one read-only transaction: its reads see one state of the store, with the
    /// record types and fields other processes made before it began, and it waits for no writer.
    func read<T>(_ body: () throws -> T) throws -> T

    /// The stored record with this ID, if any, read outside a write (``StoreTransaction/record(_:ofType:in:)`` inside one).
    func record(named recordName: String, ofType recordType: String, in scope: StoreScope) throws -> CloudRecord?

    /// Calls `line` with each record of a zone (or of one type) as one line of CloudKit JSON, byte
    /// for byte what ``CloudKitJSON/record(_:)`` writes, followed by a newline, in
    /// ``forEachRecord(in:recordType:_:)``'s order. Returns how many records went through
    /// ``CloudRecord``s rather than straight from the stored columns.
    @discardableResult
    func forEachRecordJSONLine(in scope: StoreScope, recordType: String?, _ line: ([UInt8]) throws -> Void) throws
        -> Int

    /// Calls `fields` with each record of a zone (or of one type) whose `fields` object the store
    /// writes in CloudKit JSON from its columns, or `record` with the record where it cannot, in
    /// ``forEachRecord(in:recordType:_:)``'s order: what `push` sends.
    func forEachRecordFieldsJSON(
        in scope: StoreScope, recordType: String?, fields: (RecordFieldsJSON) throws -> Void,
        record: (CloudRecord) throws -> Void
    ) throws

    /// Calls `line` with each record of a zone (or of one type) as a line of ``CSVExporter`` (the
    /// columns of a type are those `columns` gives), or `record` with the record where a store cannot
    /// write the line from its columns. Returns how many went to `record`.
    @discardableResult
    func forEachRecordCSVLine(
        in scope: StoreScope, recordType: String?, columns: (String) throws -> [String],
        line: (String, [UInt8]) throws -> Void, record: (CloudRecord) throws -> Void
    ) throws -> Int

    /// What the store holds, for `inspect`: each zone's records counted by type, and the schemas.
    func inventory() throws -> StoreInventory

    /// The zones the store holds, of every container environment and database, in the order of
    /// their names; their records are not counted, as ``inventory()`` counts them.
    func zones() throws -> [StoreScope]

    /// The custom roles `user` has been given in a container environment (`cloudseed role assign`).
    func roles(of user: String, in scope: SchemaScope) throws -> Set<String>

    /// Gives `user` a custom role the environment's schema creates.
    func assignRole(_ role: String, to user: String, in scope: SchemaScope) throws

    /// The content of an asset, if the store has it (assets imported as metadata only have none).
    func assetContent(_ checksum: String) throws -> Data?

    /// Whether the store has the content of an asset, without reading it.
    func hasAssetContent(_ checksum: String) throws -> Bool

    /// The records deleted from a zone, each with the change tag its deletion took, for clients
    /// that fetch what changed since a sync token.
    func deletedRecords(in scope: StoreScope) throws -> [DeletedRecord]

    /// The zones deleted whole (``StoreTransaction/deleteZone(_:)``) and not made again, each with
    /// the change tag its deletion took, for clients that fetch a database's changes.
    func deletedZones() throws -> [DeletedZone]

    /// Indexes the record tables of `scope` by change tag where they are not yet, for
    /// ``records(ofType:in:changedAfter:limit:)``.
    func indexChanges(in scope: SchemaScope) throws

    /// The counter of the latest change tag a record of `scope` holds, of any type; `nil` for a
    /// zone without records. Read from the end of ``indexChanges(in:)``'s index where it is made.
    func latestChangeTag(in scope: StoreScope) throws -> Int64?

    /// The records of `recordType` in `scope` saved after the change tag counter `counter`, in
    /// change tag order, at most `limit`: a page of the zone's changes, read without the rest.
    func records(ofType recordType: String, in scope: StoreScope, changedAfter counter: Int64, limit: Int) throws
        -> [CloudRecord]

    /// What `push` and `pull` noted for one remote database (`target`), by key: the records a push
    /// saw confirmed, the sync token of each zone a pull fetched.
    func journalEntries(of target: String) throws -> [String: String]

    /// Notes `entries` for `target`, replacing those with the same keys, in one transaction of its own.
    func saveJournalEntries(_ entries: [(key: String, value: String)], of target: String) throws
}

/// A record deleted from a zone: what `records/changes` answers as `deleted: true`.
package struct DeletedRecord: Hashable, Sendable {
    package var recordName: String
    package var recordType: String
    /// The change tag counter the deletion took: it follows every change before it.
    package var changeTag: Int64

    package init(recordName: String, recordType: String, changeTag: Int64) {
        self.recordName = recordName
        self.recordType = recordType
        self.changeTag = changeTag
    }
}

/// A zone deleted whole: what `changes/database` answers as `deleted: true`.
package struct DeletedZone: Hashable, Sendable {
    package var scope: StoreScope
    /// The change tag counter the deletion took.
    package var changeTag: Int64

    package init(scope: StoreScope, changeTag: Int64) {
        self.scope = scope
        self.changeTag = changeTag
    }
}

extension StoreBackend {
    /// Runs `body` as one transaction of a few records: everything it writes is kept, or nothing is.
    package func write<T>(_ body: (any StoreTransaction) throws -> T) throws -> T {
        try write(bulk: false, body)
    }

    /// Refuses a role the container environment's schema does not create.
    package func requireRole(_ role: String, in scope: SchemaScope) throws {
        guard try !schemaDefinition(of: scope).roles.contains(role) else { return }
        throw CloudSeedError(
            .invalidOption,
            "the \(scope.environment.rawValue) schema of \(scope.container) has no role '\(role)'; add CREATE ROLE \(role); to the schema and run \(option: .schemaImport)"
        )
    }

    /// Refuses a record type a command names (`--type`) that the container environment's schema
    /// lacks, naming the types it has, rather than letting it select no records.
    package func checkRecordType(_ recordType: String, in scope: SchemaScope) throws {
        let types = try schema(of: scope).sortedRecordTypes.map(\.name)
        guard !types.contains(recordType) else { return }
        throw CloudSeedError(
            .unknownRecordType,
            "the store has no record type \(recordType) in \(scope.container) \(scope.environment.rawValue)\(types.isEmpty ? "" : "; its types are \(types.joined(separator: ", "))"); check \(option: .recordType(nil))"
        )
    }
}

/// The writes of one run, inside its transaction.
package protocol StoreTransaction {
    /// Adds a record type with no fields to a container environment's schema.
    func createRecordType(_ name: String, in scope: SchemaScope) throws
    /// Adds a field to a record type of a container environment's schema.
    func addField(_ name: String, type: FieldType, to recordType: String, in scope: SchemaScope) throws
    /// The stored record with this ID, if any.
    func record(_ recordName: String, ofType recordType: String, in scope: StoreScope) throws -> CloudRecord?
    /// The stored records of any type that have one of these names, by type in byte order: a
    /// record name is unique in its zone, whatever its type.
    func records(named recordNames: [String], in scope: StoreScope) throws -> [CloudRecord]
    /// Inserts or replaces a record, all its fields.
    func save(_ record: CloudRecord, in scope: StoreScope) throws
    /// Deletes a record, noting the deletion for ``StoreBackend/deletedRecords(in:)``; `false`
    /// when there was none.
    func delete(_ recordName: String, ofType recordType: String, in scope: StoreScope) throws -> Bool
    /// Creates an empty zone, if there is none by that name.
    func createZone(_ scope: StoreScope) throws
    /// Deletes a zone with its records and their deletions, noting the zone's deletion for
    /// ``StoreBackend/deletedZones()``; `false` when there was none.
    func deleteZone(_ scope: StoreScope) throws -> Bool
    /// Stores an asset's content under its checksum, once.
    func saveAsset(_ asset: AssetReference, content: Data?) throws
    /// A change tag not given to any record before.
    func nextChangeTag() throws -> String
    /// Makes ``nextChangeTag()`` give only tags that follow every change tag the store's records
    /// hold, once records were saved with tags of their own (as a restore saves them).
    func reserveStoredChangeTags() throws
    /// Makes `definition` the schema of a container environment: types and fields it adds are
    /// created, those it leaves out are removed from the schema (their data stays in the file),
    /// and indexes follow the fields' options.
    func applySchema(_ definition: SchemaDefinition, to scope: SchemaScope) throws
    /// Lets the records of a type whose table is empty go in without its index on record names,
    /// built by ``buildDeferredNameIndexes()`` once they are in, or when the transaction ends; the
    /// caller saves each name once. `false` where the store keeps the index (nothing changes).
    func deferNameIndex(ofType recordType: String, in scope: SchemaScope) throws -> Bool
    /// Builds the indexes ``deferNameIndex(ofType:in:)`` let wait.
    func buildDeferredNameIndexes() throws
    /// Starts building those indexes where the store builds them while the run goes on (a
    /// PostgreSQL server does; SQLite would build them on the run's own thread, and waits for
    /// ``buildDeferredNameIndexes()``). Their failure is thrown by the store's next statement, at the
    /// latest by the commit.
    func startBuildingDeferredNameIndexes() throws
    /// Saves a record of a type the run created, whose fields are the values of `record` under
    /// `fieldNames` (the type's field names in byte order, as the schema has them).
    func insertNew(_ record: TypedRecord, fieldNames: [String], system: SystemFields, in scope: StoreScope) throws
    /// How the values of `recordType`'s records saved with ``insertNew(_:fieldNames:system:in:)``
    /// may be encoded where they are typed, on the reading thread (``TypedRecord/encodedValues``);
    /// `nil` where the store takes them as values.
    func valueEncoder(for recordType: String, fieldNames: [String], in scope: StoreScope) throws
        -> StoredValueEncoder?
    /// Whether the zone holds any record of `recordType`.
    func holdsRecords(ofType recordType: String, in scope: StoreScope) throws -> Bool
    /// The names among `recordNames` that the zone's records of `recordType` have, found by one
    /// statement: a run asks for a batch of its records at once, not a record at a time.
    func storedNames(_ recordNames: [String], ofType recordType: String, in scope: StoreScope) throws -> Set<String>
    /// Whether the store holds a record named as `record` (created by `creator`, if given) whose
    /// fields of `fieldNames` already hold each value `record` sets, so that saving it with changed
    /// keys would change nothing. `false` where the store cannot tell quickly: the caller then
    /// reads the record and compares.
    func holdsUnchanged(_ record: TypedRecord, fieldNames: [String], createdBy creator: String?, in scope: StoreScope)
        throws -> Bool
    /// How many rows an import may read ahead of the records it hands this transaction: room for
    /// the reading thread to go on while the transaction waits for its store.
    var rowsReadAhead: Int { get }
}

extension StoreTransaction {
    /// 8,192 rows (``BackgroundProducer/defaultItemsAhead``): a store written on the run's own
    /// thread (SQLite) takes rows as fast as they come.
    package var rowsReadAhead: Int { BackgroundProducer.defaultItemsAhead }
    package func deferNameIndex(ofType recordType: String, in scope: SchemaScope) throws -> Bool { false }
    package func buildDeferredNameIndexes() throws {}
    package func startBuildingDeferredNameIndexes() throws {}
    package func holdsUnchanged(
        _ record: TypedRecord, fieldNames: [String], createdBy creator: String?, in scope: StoreScope
    ) throws -> Bool {
        false
    }

    package func insertNew(_ record: TypedRecord, fieldNames: [String], system: SystemFields, in scope: StoreScope)
        throws
    {
        try save(record.cloudRecord(fieldNames: fieldNames, system: system), in: scope)
    }

    package func valueEncoder(for recordType: String, fieldNames: [String], in scope: StoreScope) throws
        -> StoredValueEncoder?
    { nil }
}

/// Everything a store holds, summarised.
package struct StoreInventory: Sendable {
    package struct Zone: Sendable {
        package var container: String
        package var environment: ContainerEnvironment
        package var database: DatabaseScope
        package var zoneID: RecordZoneID
        /// Record counts by record type.
        package var recordCounts: [String: Int]
    }

    package var zones: [Zone]
    package var schemas: [SchemaScope: Schema]
}
