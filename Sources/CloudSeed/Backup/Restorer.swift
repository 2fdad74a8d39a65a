import CloudKitWire
import Foundation

/// Restores a verified backup bundle into a store, in one transaction: each environment's schema,
/// every record exactly as it was (name, type, zone, typed fields, times, users and change tag),
/// and the assets with their content. An error anywhere writes nothing.
///
/// ```swift
/// let bundle = try BackupBundle(verifying: "backups/gallery")
/// try Restorer(store: try SQLiteContainerStore(path: "restored.sqlite")).restore(bundle)
/// ```
///
/// Into a container that holds records, a restore is refused unless it merges: then the backup's
/// schema is added to the store's, and its records are written over those with the same IDs
/// (CloudKit's all-keys save). Change tags given afterwards follow the restored ones.
public struct Restorer: Sendable {
    /// The store written, held to itself for the length of a run.
    package var containerStore: ContainerStore
    private var store: any StoreBackend { containerStore.backend }
    /// The container to restore into; `nil` for the one the backup was made of.
    public var container: String?
    /// Whether to write the backup over records the container holds, rather than refuse.
    public var merge: Bool

    /// A restorer into `store`: into `container`, or the backup's own when `nil`; `merge` writes
    /// the backup over records the container holds rather than refusing.
    public init(store: ContainerStore, container: String? = nil, merge: Bool = false) {
        self.containerStore = store
        self.container = container
        self.merge = merge
    }

    /// Verifies the backup in `folder` (every file against its checksum), restores it, and returns
    /// its manifest.
    @discardableResult
    public func restore(from folder: String) throws -> BackupManifest {
        try containerStore.exclusively { try restore(BackupBundle(verifying: folder)) }
    }

    /// Restores `bundle` and returns its manifest.
    @discardableResult
    package func restore(_ bundle: BackupBundle) throws -> BackupManifest {
        let manifest = bundle.manifest
        let container = self.container ?? manifest.container
        try store.write(bulk: true) { transaction in
            if !merge,
                try store.inventory().zones.contains(where: {
                    $0.container == container && $0.recordCounts.values.contains { $0 > 0 }
                })
            {
                throw CloudSeedError(
                    .recordConflict,
                    "the store already holds records of \(container); restore into a new \(option: .store), or pass \(option: .merge) to write the backup's records over them"
                )
            }
            var schemas: [ContainerEnvironment: Schema] = [:]
            for environment in manifest.environments.map(\.environment) {
                let scope = SchemaScope(container: container, environment: environment)
                schemas[environment] = try restoreSchema(bundle, environment, into: scope, transaction)
            }
            var assets = AssetSizes()
            for file in manifest.recordFiles {
                let scope = StoreScope(
                    container: container, environment: file.environment, database: file.database, zoneID: file.zoneID)
                let records = RecordFileCheck(
                    path: bundle.displayPath(file.path), recordType: file.recordType, zoneID: file.zoneID,
                    schema: schemas[file.environment]?.recordTypes[file.recordType], environment: file.environment)
                var parser = JSONParser(input: try ChunkedInput(path: bundle.url(file.path).path), file: records.path)
                var count = 0
                var previous: String?
                try parser.forEachValue { node in
                    let record = try CloudKitRecordDecoding.record(from: node)
                    try records.check(record, after: previous, at: node.position)
                    try assets.note(record, at: node.position)
                    try transaction.save(record, in: scope)
                    previous = record.recordID.recordName
                    count += 1
                }
                guard count == file.count else {
                    throw CloudSeedError(
                        .damagedBackup,
                        "holds \(count) records but the manifest counts \(file.count); \(StrictObject.advice)",
                        at: SourcePosition(file: records.path))
                }
            }
            try restoreAssets(bundle, referenced: assets, transaction)
            try transaction.reserveStoredChangeTags()
        }
        return manifest
    }

    /// Applies an environment's schema from the bundle (added to the store's when merging); returns it.
    private func restoreSchema(
        _ bundle: BackupBundle, _ environment: ContainerEnvironment, into scope: SchemaScope,
        _ transaction: any StoreTransaction
    ) throws -> Schema {
        let path = BackupLayout.schema(environment)
        guard let text = String(validating: try Data(contentsOf: bundle.url(path)), as: UTF8.self) else {
            throw CloudSeedError(
                .damagedBackup, "the schema is not UTF-8 text; \(StrictObject.advice)",
                at: SourcePosition(file: bundle.displayPath(path)))
        }
        var definition = try CKSLParser.parse(text, file: bundle.displayPath(path))
        if merge {
            definition = try store.schemaDefinition(of: scope).merging(definition, from: bundle.displayPath(path))
        }
        try transaction.applySchema(definition, to: scope)
        return Schema(definition)
    }

    /// Saves the bundle's asset files, and the assets records use that the bundle has no file of
    /// (imported as metadata only) with their sizes.
    private func restoreAssets(_ bundle: BackupBundle, referenced: AssetSizes, _ transaction: any StoreTransaction)
        throws
    {
        var metadataOnly = referenced.sizes
        for file in bundle.manifest.files where file.path.hasPrefix("assets/") {
            let checksum = String(file.path.dropFirst("assets/".count))
            if let size = metadataOnly.removeValue(forKey: checksum), size != file.size {
                throw CloudSeedError(
                    .damagedBackup,
                    "records give asset \(checksum) the size \(size), but its file has \(file.size) bytes; \(StrictObject.advice)",
                    at: SourcePosition(file: bundle.displayPath(file.path)))
            }
            let content = try Data(contentsOf: bundle.url(file.path))
            try transaction.saveAsset(AssetReference(fileChecksum: checksum, size: file.size), content: content)
        }
        for (checksum, size) in metadataOnly {
            try transaction.saveAsset(AssetReference(fileChecksum: checksum, size: size), content: nil)
        }
    }
}

/// What every record of one records file must be: of the file's type and zone, in order of name,
/// with fields the environment's schema defines with the same types.
private struct RecordFileCheck {
    var path: String
    var recordType: String
    var zoneID: RecordZoneID
    var schema: RecordTypeSchema?
    var environment: ContainerEnvironment

    func check(_ record: CloudRecord, after previous: String?, at position: SourcePosition) throws {
        func refuse(_ message: String) -> CloudSeedError {
            CloudSeedError(.damagedBackup, "\(message); \(StrictObject.advice)", at: position)
        }
        guard record.recordType == recordType else {
            throw refuse("a record of type \(record.recordType) in the file of \(recordType) records")
        }
        guard record.recordID.zoneID == zoneID else {
            throw refuse(
                "a record of zone \(record.recordID.zoneID.zoneName) of \(record.recordID.zoneID.ownerName) in the file of zone \(zoneID.zoneName) of \(zoneID.ownerName)"
            )
        }
        if let previous, !SchemaDefinition.byteOrder(previous, record.recordID.recordName) {
            throw refuse(
                "record \(record.recordID.recordName) comes after \(previous); a backup lists each record once, in order of name"
            )
        }
        guard let schema else {
            throw refuse("record type \(recordType) is not in the backup's \(environment.rawValue) schema")
        }
        for name in record.sortedFieldNames {
            let type = record.fields[name]!.fieldType
            guard let defined = schema.fields[name] else {
                throw refuse("field '\(name)' is not in the backup's \(environment.rawValue) schema of \(recordType)")
            }
            guard defined == type else {
                throw refuse(
                    "field '\(name)' is \(type) here but \(defined) in the backup's \(environment.rawValue) schema")
            }
        }
    }
}

/// The size of each asset the restored records use; records that disagree on one are refused.
private struct AssetSizes {
    private(set) var sizes: [String: Int64] = [:]

    mutating func note(_ record: CloudRecord, at position: SourcePosition) throws {
        for name in record.sortedFieldNames {
            try record.fields[name]!.forEachAsset { asset in
                if let known = sizes[asset.fileChecksum], known != asset.size {
                    throw CloudSeedError(
                        .damagedBackup,
                        "asset \(asset.fileChecksum) has the size \(asset.size) here but \(known) in an earlier record; \(StrictObject.advice)",
                        at: position)
                }
                sizes[asset.fileChecksum] = asset.size
            }
        }
    }
}
