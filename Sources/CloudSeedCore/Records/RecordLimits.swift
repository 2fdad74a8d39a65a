/// CloudKit's limits on records.
package enum RecordLimits {
    /// A record's fields, assets excluded, encode to at most 1 MB.
    package static let maximumRecordSize = 1_048_576
}
