/// A record as CloudKit has it: a type, an ID, typed fields and system fields.
///
/// Named `CloudRecord` so that no file importing GRDB or Foundation meets an ambiguous `Record`.
public struct CloudRecord: Hashable, Sendable {
    public var recordType: String
    public var recordID: RecordID
    /// The record's fields by name; a field that is not set is absent (CloudKit has no null).
    public var fields: [String: RecordValue]
    public var system: SystemFields

    public init(
        recordType: String, recordID: RecordID, fields: [String: RecordValue], system: SystemFields = SystemFields()
    ) {
        self.recordType = recordType
        self.recordID = recordID
        self.fields = fields
        self.system = system
    }

    /// The field names in byte order, the order CloudKit exports them in.
    public var sortedFieldNames: [String] {
        fields.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }
}

/// The fields CloudKit keeps for every record: who made and changed it, when, and its change tag.
public struct SystemFields: Hashable, Sendable {
    /// Creation time in milliseconds since 1970.
    public var createdTimestamp: Int64
    public var createdUserRecordName: String
    /// Modification time in milliseconds since 1970.
    public var modifiedTimestamp: Int64
    public var modifiedUserRecordName: String
    /// The change tag (etag): changes each time the record's fields change.
    public var changeTag: String

    public init(
        createdTimestamp: Int64 = 0, createdUserRecordName: String = RecordZoneID.defaultOwnerName,
        modifiedTimestamp: Int64 = 0, modifiedUserRecordName: String = RecordZoneID.defaultOwnerName,
        changeTag: String = ""
    ) {
        self.createdTimestamp = createdTimestamp
        self.createdUserRecordName = createdUserRecordName
        self.modifiedTimestamp = modifiedTimestamp
        self.modifiedUserRecordName = modifiedUserRecordName
        self.changeTag = changeTag
    }

    /// Whether the two are the same but for their change tags: records stored with both share
    /// their other system columns.
    package func sharesColumns(with other: SystemFields) -> Bool {
        createdTimestamp == other.createdTimestamp && modifiedTimestamp == other.modifiedTimestamp
            && createdUserRecordName == other.createdUserRecordName
            && modifiedUserRecordName == other.modifiedUserRecordName
    }
}
