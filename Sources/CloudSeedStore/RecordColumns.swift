/// The columns of a record type's table in every store.
package enum RecordColumns {
    /// The system columns every record table has, before its field columns.
    package static let system = [
        "___zone", "___recordID", "___createTime", "___createdBy", "___modTime", "___modifiedBy", "___etag",
    ]
}
