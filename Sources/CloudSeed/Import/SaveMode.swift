/// How a run writes records that may already exist, after CloudKit's save policies.
public enum SaveMode: String, CaseIterable, Sendable {
    /// Create only: a record that exists is a conflict (Web Services' `create`).
    case create
    /// Save only where the stored change tag is the one the source gives (`ifServerRecordUnchanged`).
    case updateIfUnchanged = "update-if-unchanged"
    /// Set the given fields and keep the others (`changedKeys`, the default).
    case changedKeys = "changed-keys"
    /// Replace the record's fields with the given ones (`allKeys`).
    case allKeys = "all-keys"

    /// What saving `record` over `existing` gives: the fields to store, or why it is refused.
    func merge(_ record: CloudRecord, over existing: CloudRecord?) -> Result<[String: RecordValue], CloudSeedError> {
        guard let existing else { return .success(record.fields) }
        let name = "record '\(record.recordID.recordName)' of type \(record.recordType)"
        switch self {
        case .create:
            return .failure(
                CloudSeedError(
                    .recordConflict,
                    "\(name) already exists; \(option: .saveMode("create")) only adds records (use \(option: .saveMode("changed-keys")) to update them)"
                ))
        case .updateIfUnchanged where record.system.changeTag != existing.system.changeTag:
            let given = record.system.changeTag.isEmpty ? "no change tag" : "change tag '\(record.system.changeTag)'"
            return .failure(
                CloudSeedError(
                    .recordConflict,
                    "\(name) was changed in the store: the source has \(given), the store '\(existing.system.changeTag)' (CloudKit's serverRecordChanged); export it again or use \(option: .saveMode("changed-keys"))"
                ))
        case .updateIfUnchanged, .changedKeys:
            return .success(existing.fields.merging(record.fields) { _, new in new })
        case .allKeys:
            return .success(record.fields)
        }
    }
}
