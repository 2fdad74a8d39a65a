/// A record's name, type and change tag, with its `fields` object in CloudKit JSON (`{"title":
/// {"value":"Thinker","type":"STRING"}}`), as a store writes it from its columns. The store
/// writes every record's fields into one buffer, lent for the call: copy what is kept.
package struct RecordFieldsJSON: Sendable {
    package var recordName: String
    package var recordType: String
    package var changeTag: String
    package var fields: [UInt8]

    package init(recordName: String, recordType: String, changeTag: String, fields: [UInt8]) {
        self.recordName = recordName
        self.recordType = recordType
        self.changeTag = changeTag
        self.fields = fields
    }
}
