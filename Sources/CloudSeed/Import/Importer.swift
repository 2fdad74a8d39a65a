public import Foundation

/// Runs an import: reads the sources, plans the records, and writes them in one transaction,
/// creating record types and fields just in time in development and refusing to in production.
public struct Importer: Sendable {
    /// The store written, held to itself for the length of a run.
    package var containerStore: ContainerStore
    private var store: any StoreBackend { containerStore.backend }
    public var scope: StoreScope
    public var options: MappingOptions
    /// The user recorded as creator and modifier.
    public var userRecordName: String
    /// The time stamped on created and modified records, in milliseconds since 1970.
    public var now: Int64
    /// How records that exist are written.
    public var mode: SaveMode = .changedKeys
    /// Save the records that can be saved and list the conflicts, rather than writing nothing (`--partial`).
    public var partial = false
    /// A schema made the environment's schema, in the same transaction, before the records are written.
    public var schemaDefinition: SchemaDefinition?
    /// Empty the zone first (`seed --reset`).
    public var reset = false
    /// Delete the records of the run's types that the run did not produce (`seed --prune`).
    public var prune = false

    /// An importer into `scope` of `store`; `userRecordName` is who creates and modifies the
    /// records, `now` the time stamped on them in milliseconds since 1970.
    public init(
        store: ContainerStore, scope: StoreScope, options: MappingOptions = MappingOptions(),
        userRecordName: String = RecordZoneID.defaultOwnerName, now: Int64 = Int64(Date().timeIntervalSince1970 * 1000)
    ) {
        self.containerStore = store
        self.scope = scope
        self.options = options
        self.userRecordName = userRecordName
        self.now = now
    }

    /// Imports `sources`; on any error nothing is written and the errors are thrown as one ``CloudSeedError``, the
    /// first with the rest as its ``CloudSeedError/furtherErrors``.
    ///
    /// With `dryRun` the whole import runs, so the counts are exact, and is then rolled back.
    public func run(_ sources: [SourceFile], dryRun: Bool = false) throws -> ImportSummary {
        try run(sources, dryRun: dryRun, rejected: { _ in })
    }

    /// Imports `sources` as ``run(_:dryRun:)`` does, reporting the rows and records left out of the
    /// run (`--rejects`) to `rejected`, besides the summary's count.
    package func run(
        _ sources: [SourceFile], dryRun: Bool = false, rejected: (RejectedRow) throws -> Void
    ) throws -> ImportSummary {
        let start = Date()
        var summary: ImportSummary
        do {
            summary = try containerStore.exclusively { try write(sources, dryRun: dryRun, rejected: rejected) }
        } catch let rollback as DryRunRollback {
            summary = rollback.summary
        }
        summary.seconds = Date().timeIntervalSince(start)
        return summary
    }

    /// Thrown out of the transaction to undo a dry run.
    private struct DryRunRollback: Error {
        var summary: ImportSummary
    }

    /// How many records of each source the plan is guessed from, to read the sources once where
    /// the guess holds; `nil` reads them twice (tests compare the two ways).
    var guessingRows: Int? = 10_000

    /// Thrown out of the transaction when the plan all the rows decide is not the one guessed
    /// from the first rows: what was written is rolled back, and the run reads twice.
    private struct GuessMissed: Error {}

    /// Whether the run may guess its plan from the first rows of each source and check it while
    /// writing (``RecordMapper/forEachRecord(_:plan:surveying:rowsReadAhead:assets:rejected:encoders:record:)``):
    /// not where a miss could not be undone by the rollback alone (rows reported as rejected, a
    /// reset or prune).
    private var mayGuessPlan: Bool {
        !reset && !prune && !partial && !options.skipBadRows
    }

    private func write(_ sources: [SourceFile], dryRun: Bool, rejected: (RejectedRow) throws -> Void) throws
        -> ImportSummary
    {
        try ScopeValidation.validate(scope)
        // The whole run, planning included, holds the write lock, so that a concurrent run cannot
        // change the schema between this one's plan and its writes.
        if mayGuessPlan, guessingRows != nil {
            options.progress?.startOver(readingOnce: true)
            do {
                return try store.write(bulk: true) {
                    try write(sources, dryRun: dryRun, guessing: true, transaction: $0, rejected: rejected)
                }
            } catch is GuessMissed {
                options.progress?.startOver(readingOnce: false)
            }
        }
        return try store.write(bulk: true) {
            try write(sources, dryRun: dryRun, guessing: false, transaction: $0, rejected: rejected)
        }
    }

    /// The run in `transaction`. `guessing`, the plan is guessed from the first rows of the
    /// sources, which are then read once: written by the guess while pass one's survey takes in
    /// every row, whose plan must be the guess (else ``GuessMissed``). It is, wherever the first
    /// rows show what the rest hold: the same fields, types, names and references.
    private func write(
        _ sources: [SourceFile], dryRun: Bool, guessing: Bool, transaction: any StoreTransaction,
        rejected: (RejectedRow) throws -> Void
    ) throws -> ImportSummary {
        let schema = try schemaDefinition.map(Schema.init) ?? store.schema(of: scope.schemaScope)
        var options = options
        options.nameObjects(in: scope.container)
        let mapper = RecordMapper(options: options, schema: schema)
        var plan: ImportPlan
        var surveying: RunSurvey?
        if guessing {
            // Types the store has are guessed too. The check at the end indexes the stored records
            // as they are then: those this run wrote hold its rows' values, which every row's
            // survey indexes anyway, so the index can only lack a value this run replaced: a row
            // that needs it makes the plans differ, and the run reads twice.
            let firstRows = guessingRows.map(SourceReading.FirstRows.init)
            guard let guess = try? mapper.survey(sources, store: store, scope: scope, firstRows: firstRows) else {
                throw GuessMissed()
            }
            // Where the first rows were all the rows, the guess is the plan the run that reads twice
            // decides first, from the same rows and the same store: there is nothing to check.
            (plan, surveying) = (guess, firstRows?.leftRowsUnread == false ? nil : mapper.runSurvey(of: sources))
        } else {
            plan = try mapper.survey(sources, store: store, scope: scope)
        }
        // With an app's model, the records are written as Core Data writes its objects.
        var shape = try options.modelMapping.map {
            try CoreDataShape(plan: plan, mapping: $0, container: scope.container)
        }
        let writtenPlan = shape?.plan ?? plan
        let changes = try SchemaChanges(plan: writtenPlan, schema: schema, environment: scope.environment)
        if let schemaDefinition { try transaction.applySchema(schemaDefinition, to: scope.schemaScope) }
        var deleted: [String: Int] = [:]
        if reset {
            for recordType in try deleteRecords(transaction: transaction, where: { _ in true }) {
                deleted[recordType, default: 0] += 1
            }
        }
        for name in changes.newRecordTypes { try transaction.createRecordType(name, in: scope.schemaScope) }
        for (recordType, field, type) in changes.newFields {
            try transaction.addField(field, type: type, to: recordType, in: scope.schemaScope)
        }
        // Names are unique in a run, so the rows of a type the zone holds no record of need no
        // comparison with stored records: they are inserted as they come. Where the type's table
        // is empty (one the run creates, or one a schema made and no record filled yet) they go in
        // without the name index; rows of other zones and environments keep it.
        var emptyTypes = Set(changes.newRecordTypes)
        for type in writtenPlan.recordTypes
        where try transaction.deferNameIndex(ofType: type.name, in: scope.schemaScope)
            || !transaction.holdsRecords(ofType: type.name, in: scope)
        {
            emptyTypes.insert(type.name)
        }
        let permissions =
            scope.database == .public ? try Permissions(store: store, scope: scope, user: userRecordName) : nil
        var tallies: [String: ImportSummary.TypeCounts] = [:]
        var conflicts = ErrorCollector()
        var produced = Set<String>()
        let fieldNames = Dictionary(
            uniqueKeysWithValues: writtenPlan.recordTypes.map { ($0.name, $0.sortedFieldNames) })
        // Records inserted into an empty type so far per type; the type of the last one is counted apart.
        var current = (type: "", fieldNames: [String](), way: WriteWay.save, count: 0)
        var inserted: [String: Int] = [:]
        var created = SystemFields(
            createdTimestamp: now, createdUserRecordName: userRecordName, modifiedTimestamp: now,
            modifiedUserRecordName: userRecordName)
        var assetPresence = options.allowDangling ? nil : AssetPresence(store: store)
        var referenceZones = ReferenceZones(store: store, scope: scope, allowDangling: options.allowDangling)
        /// Saves `typed` by the run's mode, over the stored record where there is one.
        func saveRecord(_ typed: TypedRecord, fieldNames: [String]) throws {
            var record = typed.cloudRecord(fieldNames: fieldNames)
            let position = typed.position
            record.recordID.zoneID = scope.zoneID
            do {
                try assetPresence?.check(record)
                try referenceZones.point(&record)
                try save(
                    record, isNewType: emptyTypes.contains(record.recordType), transaction: transaction,
                    permissions: permissions,
                    tally: &tallies[record.recordType, default: .init(recordType: record.recordType)])
            } catch var conflict as CloudSeedError {
                conflict.position = position
                tallies[record.recordType, default: .init(recordType: record.recordType)].refused += 1
                if partial {
                    try rejected(RejectedRow(recordType: record.recordType, position: position, errors: [conflict]))
                } else {
                    try conflicts.record(conflict)
                }
            }
        }
        /// Inserts a record the zone does not hold.
        func insert(_ record: TypedRecord) throws {
            created.changeTag = try transaction.nextChangeTag()
            do {
                try transaction.insertNew(record, fieldNames: current.fieldNames, system: created, in: scope)
            } catch var refusal as CloudSeedError where refusal.position == nil {
                // A value the store cannot keep (a text with U+0000 in PostgreSQL): named with its row.
                refusal.position = record.position
                throw refusal
            }
        }
        // The records of a type the zone holds are looked up a batch at a time: those it does not
        // hold are inserted, the others compared or saved, in the order they came. Where the last
        // batch's records were mostly unchanged (a re-import), each is compared first, which finds
        // it without the lookup, and only the others are looked up.
        var batch: [TypedRecord] = []
        var comparesFirst = true
        func writeBatch() throws {
            guard !batch.isEmpty else { return }
            defer { batch.removeAll(keepingCapacity: true) }
            var counts = ImportSummary.TypeCounts(recordType: current.type)
            var creator: String??
            if case .compare(let by) = current.way { creator = .some(by) }
            var compared = false
            if comparesFirst, let creator {
                compared = true
                batch = try batch.filter { record in
                    guard !record.checksStore,
                        try transaction.holdsUnchanged(
                            record, fieldNames: current.fieldNames, createdBy: creator, in: scope)
                    else { return true }
                    counts.unchanged += 1
                    return false
                }
            }
            let held = try transaction.storedNames(batch.map(\.recordName), ofType: current.type, in: scope)
            let mayCreate = permissions?.mayCreate(current.type) ?? true
            for record in batch {
                let isHeld = held.contains(record.recordName)
                if record.checksStore {
                    try saveRecord(record, fieldNames: current.fieldNames)
                } else if !isHeld && mayCreate {
                    try insert(record)
                    counts.created += 1
                } else if isHeld, !compared, let creator,
                    try transaction.holdsUnchanged(
                        record, fieldNames: current.fieldNames, createdBy: creator, in: scope)
                {
                    counts.unchanged += 1
                } else {
                    try saveRecord(record, fieldNames: current.fieldNames)
                }
            }
            comparesFirst = counts.unchanged * 2 > counts.unchanged + batch.count
            tallies[current.type, default: .init(recordType: current.type)].created += counts.created
            tallies[current.type, default: .init(recordType: current.type)].unchanged += counts.unchanged
        }
        // The records of types the zone holds none of are inserted as they are built: the store
        // may encode their values where they are typed.
        var encoders: [String: StoredValueEncoder] = [:]
        for type in emptyTypes where shape == nil && permissions?.mayCreate(type) ?? true {
            encoders[type] = try transaction.valueEncoder(for: type, fieldNames: fieldNames[type]!, in: scope)
        }
        do {
            try mapper.forEachRecord(
                sources, plan: plan, surveying: surveying, rowsReadAhead: transaction.rowsReadAhead,
                assets: { asset, content in
                    try transaction.saveAsset(asset, content: content)
                },
                rejected: { row in
                    tallies[row.recordType, default: .init(recordType: row.recordType)].refused += 1
                    try rejected(row)
                }, encoders: encoders,
                record: { built in
                    /// Writes one record of the run.
                    func write(_ record: TypedRecord) throws {
                        if prune { produced.insert("\(record.recordType)/\(record.recordName)") }
                        if record.recordType != current.type {
                            try writeBatch()
                            inserted[current.type, default: 0] += current.count
                            current = (
                                record.recordType, fieldNames[record.recordType]!,
                                writeWay(of: record.recordType, emptyTypes: emptyTypes, permissions: permissions), 0
                            )
                        }
                        guard case .insert = current.way else {
                            batch.append(record)
                            return batch.count < Self.lookupBatchSize ? () : try writeBatch()
                        }
                        if record.checksStore { return try saveRecord(record, fieldNames: current.fieldNames) }
                        try insert(record)
                        current.count += 1
                    }
                    guard shape != nil else { return try write(built) }
                    for record in shape!.records(from: built) {
                        for (checksum, content) in record.assetContents {
                            try transaction.saveAsset(
                                AssetReference(fileChecksum: checksum, size: Int64(content.count)), content: content)
                        }
                        try write(record)
                    }
                })
            try writeBatch()
            try conflicts.throwIfAny()
        } catch {
            // A guess that meets a value it cannot write is checked the long way, which words the errors.
            throw guessing ? GuessMissed() : error
        }
        // A PostgreSQL server builds the keys while the guess is checked. A guess the keys refuse
        // (two rows named alike) is missed: the run that reads twice words it. SQLite builds its
        // index after the check, which frees the survey's names first and lowers the peak memory.
        do {
            try transaction.startBuildingDeferredNameIndexes()
        } catch {
            throw guessing ? GuessMissed() : error
        }
        if let surveying {
            guard let decided = try? mapper.decide(surveying, sources: sources, store: store, scope: scope),
                decided.writesTheSame(as: plan)
            else { throw GuessMissed() }
            plan = decided
        }
        inserted[current.type, default: 0] += current.count
        for (type, count) in inserted where count > 0 {
            tallies[type, default: .init(recordType: type)].created += count
        }
        try transaction.buildDeferredNameIndexes()
        try shape?.writeInverseLinks(in: transaction, scope: scope, now: now, user: userRecordName)
        if prune {
            let types = Set(writtenPlan.recordTypes.map(\.name))
            let pruned = try deleteRecords(transaction: transaction) {
                types.contains($0.recordType) && !produced.contains("\($0.recordType)/\($0.recordID.recordName)")
            }
            for recordType in pruned { deleted[recordType, default: 0] += 1 }
        }
        let counts = writtenPlan.recordTypes.map { type in
            var count = tallies[type.name] ?? .init(recordType: type.name)
            count.deleted = deleted[type.name] ?? 0
            return count
        }
        var summary = ImportSummary(scope: scope, plan: writtenPlan, changes: changes, counts: counts, isDryRun: dryRun)
        summary.readOnce = guessing
        if dryRun { throw DryRunRollback(summary: summary) }
        return summary
    }

    /// How a run writes the records of a type.
    private enum WriteWay {
        /// Inserted as they are: the zone held no record of the type when the run started, and
        /// names are unique in a run.
        case insert
        /// Inserted where the zone does not hold them; compared with the stored record (created by
        /// `creator`, if given) where it does, saved only if it differs.
        case compare(creator: String?)
        /// Inserted where the zone does not hold them; saved by the run's ``SaveMode`` over the stored record where it does.
        case save
    }

    /// How many records of a type the zone holds are looked up at once.
    static let lookupBatchSize = 4096

    /// How the records of `recordType` are written. A type the zone held no record of takes inserts
    /// where the user may create its records; a stored type is compared where the fields decide a
    /// save (changed keys, no schema given) and the permissions at most ask who created a record,
    /// so that an unchanged record is never read back. The others are saved, which words refusals.
    private func writeWay(of recordType: String, emptyTypes: Set<String>, permissions: Permissions?) -> WriteWay {
        if emptyTypes.contains(recordType) { return permissions?.mayCreate(recordType) ?? true ? .insert : .save }
        guard schemaDefinition == nil, mode == .changedKeys else { return .save }
        switch permissions?.changeableRecords(of: recordType) ?? .all {
        case .all: return .compare(creator: nil)
        case .own: return .compare(creator: userRecordName)
        case .none: return .save
        }
    }

    /// Deletes the zone's records that `shouldDelete` picks; returns the record type of each.
    private func deleteRecords(transaction: any StoreTransaction, where shouldDelete: (CloudRecord) -> Bool) throws
        -> [String]
    {
        var doomed: [(String, String)] = []
        try store.forEachRecord(in: scope, recordType: nil) { record in
            if shouldDelete(record) { doomed.append((record.recordType, record.recordID.recordName)) }
        }
        for (type, name) in doomed { _ = try transaction.delete(name, ofType: type, in: scope) }
        return doomed.map(\.0)
    }

    /// Saves a record by the run's ``SaveMode``; a record whose fields would not change keeps its
    /// change tag and counts as unchanged. A conflict is thrown, the record unsaved.
    /// A type created in this run has no stored records to compare with (names are unique in a run).
    private func save(
        _ record: CloudRecord, isNewType: Bool, transaction: any StoreTransaction, permissions: Permissions?,
        tally: inout ImportSummary.TypeCounts
    ) throws {
        var saved = record
        let existing =
            isNewType ? nil : try transaction.record(record.recordID.recordName, ofType: record.recordType, in: scope)
        try permissions?.checkSave(record, over: existing)
        let fields = try mode.merge(record, over: existing).get()
        if let existing {
            if fields == existing.fields {
                tally.unchanged += 1
                return
            }
            saved = existing
            saved.fields = fields
            saved.system.modifiedTimestamp = now
            saved.system.modifiedUserRecordName = userRecordName
            tally.updated += 1
        } else {
            saved.system = SystemFields(
                createdTimestamp: now, createdUserRecordName: userRecordName,
                modifiedTimestamp: now, modifiedUserRecordName: userRecordName)
            tally.created += 1
        }
        saved.system.changeTag = try transaction.nextChangeTag()
        try transaction.save(saved, in: scope)
    }
}

/// The schema a plan needs beyond what the store has: created just in time in development,
/// refused in production with CloudKit's messages.
package struct SchemaChanges: Sendable {
    package var newRecordTypes: [String] = []
    package var newFields: [(recordType: String, field: String, type: FieldType)] = []

    init(plan: ImportPlan, schema: Schema, environment: ContainerEnvironment) throws {
        var errors = ErrorCollector()
        for recordType in plan.recordTypes {
            let known = schema.recordTypes[recordType.name]
            if known == nil {
                if environment == .production {
                    try errors.record(
                        CloudSeedError(
                            .productionSchemaRefused,
                            "Cannot create new type \(recordType.name) in production schema; import into \(option: .environment("development")), where types are created just in time",
                            at: recordType.firstRowPosition))
                    continue
                }
                newRecordTypes.append(recordType.name)
            }
            for field in recordType.sortedFieldNames where known?.fields[field] == nil {
                if environment == .production {
                    try errors.record(
                        CloudSeedError(
                            .productionSchemaRefused,
                            "Cannot create or modify field '\(field)' in record '\(recordType.name)' in production schema; import into \(option: .environment("development")), where fields are created just in time",
                            at: recordType.firstPositions[field]))
                    continue
                }
                newFields.append((recordType.name, field, recordType.fields[field]!.type))
            }
        }
        try errors.throwIfAny()
    }
}

/// Checks a scope against CloudKit's rules before anything is read or written.
enum ScopeValidation {
    /// CloudKit's rule for a custom zone's name: 1 to 255 printable ASCII characters, the first not
    /// `_`, as `com.apple.coredata.cloudkit.zone` (Core Data's) or a UUID.
    static func isValidZoneName(_ name: String) -> Bool {
        (1...255).contains(name.utf8.count) && name.utf8.allSatisfy { (0x20...0x7E).contains($0) }
            && !name.hasPrefix("_")
    }

    static func validate(_ scope: StoreScope) throws {
        if scope.database == .public && scope.zoneID.zoneName != RecordZoneID.defaultZoneName {
            throw CloudSeedError(
                .invalidOption,
                "the public database has only the default zone; drop \(option: .zone(scope.zoneID.zoneName)) or use \(option: .database("private"))"
            )
        }
        let zone = scope.zoneID.zoneName
        guard zone == RecordZoneID.defaultZoneName || isValidZoneName(zone) else {
            throw CloudSeedError(
                .invalidOption,
                "zone name '\(zone)' is not valid: a zone name is 1 to 255 ASCII characters and does not start with '_'"
            )
        }
        guard scope.container.hasPrefix("iCloud."), scope.container.count > 7,
            scope.container.utf8.allSatisfy({ $0 < 0x80 && $0 != 0x20 })
        else {
            throw CloudSeedError(
                .invalidOption,
                "container '\(scope.container)' is not a container identifier; use the form iCloud.com.example.App")
        }
    }
}
