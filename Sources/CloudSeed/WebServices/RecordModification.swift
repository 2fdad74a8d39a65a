import Foundation

/// CloudKit Web Services' `records/modify` over a store: each operation (`create`, `update`,
/// `forceUpdate`, `replace`, `forceReplace`, `delete`, `forceDelete`) saves or deletes one record,
/// all of them in one transaction, with the import's typing, just-in-time schema, save policies
/// and grants. An operation that is refused leaves the others to go on, except in an atomic
/// request on a custom zone, where one refusal refuses them all and nothing is written.
package struct RecordModification: Sendable {
    package enum OperationType: String, CaseIterable, Sendable {
        case create, update, forceUpdate, replace, forceReplace, delete, forceDelete

        /// Whether the record's `recordChangeTag` must be the stored one.
        var checksChangeTag: Bool { [.update, .replace, .delete].contains(self) }
        /// Whether a missing record is created rather than refused.
        var createsMissing: Bool { [.create, .forceUpdate, .forceReplace].contains(self) }
        var deletes: Bool { [.delete, .forceDelete].contains(self) }
        /// How the fields given combine with the stored ones.
        var saveMode: SaveMode { [.update, .forceUpdate].contains(self) ? .changedKeys : .allKeys }
    }

    package struct Operation: Sendable {
        package var type: OperationType
        package var recordName: String?
        /// The record type the record dictionary names, if it names one.
        package var recordType: String?
        /// The `recordChangeTag` the record dictionary gives.
        package var changeTag: String?
        /// The record's fields as a row, or what is wrong with them.
        let fields: Result<SourceRow, CloudSeedError>
    }

    /// Why an operation was refused, as CloudKit tells it.
    package enum Refusal: Error {
        /// `create` of a record that exists.
        case exists
        /// The change tag given is not the stored record's, which comes back with the refusal.
        case conflict(serverRecord: CloudRecord)
        /// No stored record by that name, for an operation that needs one.
        case notFound
        /// Another operation of an atomic request was refused.
        case atomicFailure
        /// The record is refused for what it holds: a value, a schema change, a grant, its size.
        case invalid(CloudSeedError)
    }

    package enum Outcome: Sendable {
        case saved(CloudRecord)
        case deleted(recordName: String)
        case refused(recordName: String, Refusal)
    }

    package var scope: StoreScope
    /// Who creates and changes the records, for the public database's grants.
    package var user: String
    /// The time stamped on the records, in milliseconds since 1970.
    package var now: Int64
    /// Whether one refusal refuses the whole request; CloudKit applies it to custom zones only.
    package var atomic: Bool

    package init(scope: StoreScope, user: String, now: Int64, atomic: Bool = true) {
        self.scope = scope
        self.user = user
        self.now = now
        self.atomic = atomic
    }

    /// Thrown out of the transaction to undo an atomic request of which an operation was refused.
    private struct AtomicRollback: Error {
        var outcomes: [Outcome]
    }

    /// Applies `operations` in order, in one transaction of `store`; returns one outcome each.
    package func apply(_ operations: [Operation], to store: ContainerStore) throws -> [Outcome] {
        try ScopeValidation.validate(scope)
        let isAtomic = atomic && scope.zoneID.zoneName != RecordZoneID.defaultZoneName
        do {
            return try store.exclusively {
                try store.backend.write { transaction in
                    var writing = try Writing(
                        modification: self, store: store.backend, transaction: transaction,
                        names: operations.compactMap(\.recordName))
                    let outcomes = try operations.map { try writing.apply($0) }
                    if isAtomic, outcomes.contains(where: { if case .refused = $0 { true } else { false } }) {
                        throw AtomicRollback(outcomes: outcomes)
                    }
                    return outcomes
                }
            }
        } catch let rollback as AtomicRollback {
            return rollback.outcomes.map { outcome in
                switch outcome {
                case .refused: outcome
                case .saved(let record): .refused(recordName: record.recordID.recordName, .atomicFailure)
                case .deleted(let name): .refused(recordName: name, .atomicFailure)
                }
            }
        }
    }

    /// The state of one request's transaction: the schema as its operations extend it.
    private struct Writing {
        let modification: RecordModification
        let store: any StoreBackend
        let transaction: any StoreTransaction
        var schema: Schema {
            didSet { typeNames = schema.sortedRecordTypes.map(\.name) }
        }
        /// The schema's record types in byte order.
        private(set) var typeNames: [String]
        let permissions: Permissions?
        /// Refuses assets whose bytes were never uploaded.
        var assetPresence: AssetPresence
        /// The stored records the request names, of every type, by name: read for the whole request
        /// at once, and kept as its operations save and delete them.
        private var storedByName: [String: [CloudRecord]] = [:]
        var scope: StoreScope { modification.scope }

        init(
            modification: RecordModification, store: any StoreBackend, transaction: any StoreTransaction,
            names: [String]
        ) throws {
            self.modification = modification
            self.store = store
            self.transaction = transaction
            assetPresence = AssetPresence(store: store)
            schema = try store.schema(of: modification.scope.schemaScope)
            typeNames = schema.sortedRecordTypes.map(\.name)
            permissions =
                modification.scope.database == .public
                ? try Permissions(store: store, scope: modification.scope, user: modification.user) : nil
            for record in try transaction.records(named: names, in: modification.scope) {
                storedByName[record.recordID.recordName, default: []].append(record)
            }
        }

        mutating func apply(_ operation: Operation) throws -> Outcome {
            let name = operation.recordName
            do {
                if operation.type.deletes {
                    guard let name else {
                        throw Refusal.invalid(
                            CloudSeedError(.malformedSource, "a delete needs the record's recordName"))
                    }
                    return try delete(name, operation)
                }
                return try save(operation)
            } catch let refusal as Refusal {
                return .refused(recordName: name ?? "", refusal)
            } catch let error as CloudSeedError where error.code != .storeFailure {
                return .refused(recordName: name ?? "", .invalid(error))
            }
        }

        /// The stored record named `name`, whatever its type: a record name is unique in its zone. One
        /// of another type than the `recordType` the request gives is refused.
        private func stored(_ name: String, ofType recordType: String?) throws -> CloudRecord? {
            guard let found = storedByName[name], let first = found.first else { return nil }
            let record = found.first { $0.recordType == recordType } ?? first
            if let recordType, record.recordType != recordType {
                throw Refusal.invalid(
                    CloudSeedError(
                        .invalidOption,
                        "record '\(name)' is of type \(record.recordType), not \(recordType); a record name is unique in its zone"
                    ))
            }
            return record
        }

        private func checkChangeTag(_ given: String?, _ operation: Operation, against existing: CloudRecord) throws {
            guard operation.type.checksChangeTag, given != existing.system.changeTag else { return }
            throw Refusal.conflict(serverRecord: existing)
        }

        private mutating func delete(_ name: String, _ operation: Operation) throws -> Outcome {
            guard let existing = try stored(name, ofType: operation.recordType) else {
                throw Refusal.notFound
            }
            try checkChangeTag(operation.changeTag, operation, against: existing)
            try permissions?.checkSave(existing, over: existing)
            try checkNoValidatingReference(to: name)
            _ = try RecordDeleter(store: store, scope: scope).delete(
                [name], ofType: existing.recordType, in: transaction)
            storedByName[name] = nil
            return .deleted(recordName: name)
        }

        private mutating func save(_ operation: Operation) throws -> Outcome {
            let givenName = operation.recordName
            let existing = try givenName.flatMap { try stored($0, ofType: operation.recordType) }
            var row = try operation.fields.get()
            if row.recordType == nil { row.recordType = existing?.recordType }
            let typed = try RecordDictionaryTyping.typed(row, schema: schema)
            if let existing {
                if operation.type == .create { throw Refusal.exists }
                try checkChangeTag(typed.changeTag, operation, against: existing)
            } else if !operation.type.createsMissing {
                throw Refusal.notFound
            }
            try extendSchema(for: typed)
            var record = CloudRecord(
                recordType: typed.recordType,
                recordID: RecordID(recordName: givenName ?? UUID().uuidString, zoneID: scope.zoneID),
                fields: typed.fields)
            try checkSize(of: record)
            try assetPresence.check(record)
            try checkValidatedTargets(of: record)
            try permissions?.checkSave(record, over: existing)
            record.fields = try operation.type.saveMode.merge(record, over: existing).get()
            if let existing {
                if record.fields == existing.fields { return .saved(existing) }
                record.system = existing.system
            } else {
                record.system.createdTimestamp = modification.now
                record.system.createdUserRecordName = modification.user
            }
            record.system.modifiedTimestamp = modification.now
            record.system.modifiedUserRecordName = modification.user
            record.system.changeTag = try transaction.nextChangeTag()
            try transaction.save(record, in: scope)
            storedByName[record.recordID.recordName] = [record]
            return .saved(record)
        }

        /// Creates the record type and fields `typed` needs, in development; refuses them in production.
        private mutating func extendSchema(for typed: RecordDictionaryTyping.Typed) throws {
            if let known = schema.recordTypes[typed.recordType],
                typed.fields.keys.allSatisfy({ known.fields[$0] != nil })
            {
                return
            }
            let changes = try SchemaChanges(
                plan: ImportPlan(recordTypes: [typed.planned]), schema: schema, environment: scope.environment)
            for name in changes.newRecordTypes {
                try transaction.createRecordType(name, in: scope.schemaScope)
                schema.recordTypes[name] = RecordTypeSchema(name: name)
            }
            for (recordType, field, type) in changes.newFields {
                try transaction.addField(field, type: type, to: recordType, in: scope.schemaScope)
                schema.recordTypes[recordType]?.fields[field] = type
            }
        }

        /// Refuses a record whose VALIDATE references name records that do not exist.
        private func checkValidatedTargets(of record: CloudRecord) throws {
            guard record.fields.values.contains(where: { $0.references.contains { $0.action == .validate } }) else {
                return
            }
            for (field, value) in record.fields.sorted(by: { $0.key < $1.key }) {
                for reference in value.references where reference.action == .validate {
                    var target = scope
                    if let zoneName = reference.zoneName { target.zoneID.zoneName = zoneName }
                    guard
                        try typeNames.contains(where: {
                            try transaction.record(reference.recordName, ofType: $0, in: target) != nil
                        })
                    else {
                        throw CloudSeedError(
                            .unresolvedReference,
                            "field '\(field)' is a VALIDATE reference to '\(reference.recordName)', which does not exist; save that record first or use the action NONE"
                        )
                    }
                }
            }
        }

        /// Refuses deleting a record that VALIDATE references of other records still name.
        private func checkNoValidatingReference(to name: String) throws {
            var source: String?
            try store.forEachRecord(in: scope, recordType: nil) { record in
                guard source == nil else { return }
                if record.fields.values.contains(where: {
                    $0.references.contains { $0.action == .validate && $0.recordName == name && $0.zoneName == nil }
                }) {
                    source = record.recordID.recordName
                }
            }
            if let source {
                throw CloudSeedError(
                    .unresolvedReference,
                    "record '\(source)' has a VALIDATE reference to '\(name)'; delete '\(source)' first or change its action to NONE"
                )
            }
        }

        private func checkSize(of record: CloudRecord) throws {
            let size = record.fields.values.reduce(0) { $0 + $1.encodedSize }
            guard size > RecordLimits.maximumRecordSize else { return }
            throw CloudSeedError(
                .limitExceeded,
                "record '\(record.recordID.recordName)' of type \(record.recordType) is \(size) bytes, over CloudKit's limit of \(RecordLimits.maximumRecordSize) bytes; move large values into an ASSET field"
            )
        }
    }
}
