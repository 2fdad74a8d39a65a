import Foundation

/// What an import will write: per record type its fields with their types, how each choice was
/// made, and the records; plus the asset files to store.
public struct ImportPlan: Sendable {
    public var recordTypes: [PlannedRecordType]
    /// Asset content by checksum, for assets loaded from files.
    public var assetContents: [String: Data]

    /// Every asset the planned records name, once each, by checksum.
    public var assets: [AssetReference] {
        var seen: [String: AssetReference] = [:]
        for recordType in recordTypes {
            for record in recordType.records {
                for value in record.fields.values { value.forEachAsset { seen[$0.fileChecksum] = $0 } }
            }
        }
        return seen.keys.sorted().map { seen[$0]! }
    }
}

extension RecordValue {
    /// Calls `body` with this value's asset, or each asset of a list.
    func forEachAsset(_ body: (AssetReference) -> Void) {
        switch self {
        case .asset(let asset): body(asset)
        case .list(_, let items): items.forEach { $0.forEachAsset(body) }
        default: break
        }
    }
}

/// One record type of a plan.
public struct PlannedRecordType: Sendable {
    public var name: String
    public var fields: [String: PlannedField]
    public var namingRule: NamingRule
    public var records: [CloudRecord]
    /// Where each record came from, in the order of ``records``.
    public var positions: [SourcePosition]
    /// The position of each field's first value, for schema errors.
    public var firstPositions: [String: SourcePosition]

    /// Field names in byte order.
    public var sortedFieldNames: [String] { fields.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) } }
}

/// A field of a planned record type: its type and which rule chose it.
public struct PlannedField: Hashable, Sendable {
    public enum Rule: String, Sendable {
        /// The store's schema defines the field.
        case schema
        /// `--field NAME:TYPE`.
        case override
        /// The source declares it (CloudKit record dictionaries).
        case declared
        /// Inferred over all values of the run.
        case inferred
    }

    public var type: FieldType
    public var rule: Rule
}
