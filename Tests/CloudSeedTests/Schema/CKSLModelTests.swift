import Testing

@testable import CloudSeed
@testable import CloudSeedCore
@testable import CloudSeedReaders
@testable import CloudSeedSchema
@testable import CloudSeedStore

@Suite struct CKSLModelTests {
    @Test func keepsRecordTypesAndRolesUniqueAndInByteOrder() {
        var schema = SchemaDefinition(
            roles: ["zeta", "Alpha", "zeta"],
            recordTypes: [
                RecordTypeDefinition(name: "title"), RecordTypeDefinition(name: "CD_Item"),
                RecordTypeDefinition(name: "Users"),
            ])
        #expect(schema.roles == ["Alpha", "zeta"])
        #expect(schema.recordTypes.map(\.name) == ["CD_Item", "Users", "title"])
        schema.recordTypes.append(RecordTypeDefinition(name: "Artist", grants: [Grant([.read], to: .world)]))
        schema.recordTypes.append(RecordTypeDefinition(name: "Artist"))
        #expect(schema.recordTypes.map(\.name) == ["Artist", "CD_Item", "Users", "title"])
        #expect(schema.recordType(named: "Artist")?.grants == [])
    }

    @Test func keepsSystemFieldsAndSortsFieldsInByteOrder() {
        var recordType = RecordTypeDefinition(
            name: "T",
            fields: [
                FieldDefinition(name: "title", type: .string),
                FieldDefinition(name: "CD_x", type: .int64),
                FieldDefinition(name: "___recordID", type: .reference, options: [.queryable]),
            ])
        #expect(
            recordType.fields.map(\.name) == [
                "CD_x", "___createTime", "___createdBy", "___etag", "___modTime", "___modifiedBy", "___recordID",
                "title",
            ])
        #expect(recordType.field(named: "___recordID")?.options == [.queryable])
        #expect(recordType.userFields.map(\.name) == ["CD_x", "title"])
        recordType.fields.removeAll()
        #expect(recordType.fields == FieldDefinition.systemFields)
        recordType.fields.append(FieldDefinition(name: "title", type: .string))
        recordType.fields.append(FieldDefinition(name: "title", type: .double))
        #expect(recordType.userFields == [FieldDefinition(name: "title", type: .double)])
    }

    @Test func mergesGrantsPerRoleInPrintOrderAndDropsEmptyOnes() {
        var recordType = RecordTypeDefinition(
            name: "T",
            grants: [
                Grant([.read], to: "zeta"), Grant([.write], to: .world), Grant([.read], to: .world),
                Grant([], to: .icloud), Grant([.create], to: "Alpha"), Grant([.write], to: .creator),
            ])
        #expect(
            recordType.grants == [
                Grant([.write], to: .creator), Grant([.read, .write], to: .world), Grant([.create], to: "Alpha"),
                Grant([.read], to: "zeta"),
            ])
        recordType.grants[0].permissions.insert(.read)
        #expect(recordType.permissions(of: .creator) == [.read, .write])
        #expect(recordType.permissions(of: .icloud) == [])
    }

    @Test func spellsNamesAsCKSLWritesThem() {
        #expect(Grant([.write, .read, .create], to: .icloud).description == #"GRANT READ, CREATE, WRITE TO "_icloud""#)
        #expect(Grant([.create], to: "test role").description == #"GRANT CREATE TO "test role""#)
        #expect(Grant([.create], to: "sortable").description == #"GRANT CREATE TO "sortable""#)
        #expect(
            FieldDefinition(name: "x", type: .number(preferred: .double), options: [.sortable, .queryable]).declaration
                == "NUMBER PREFERRED AS DOUBLE QUERYABLE SORTABLE")
        #expect(FieldDefinition(name: "x", type: .timestamp, isEncrypted: true).declaration == "ENCRYPTED TIMESTAMP")
        #expect(FieldDataType.list(.location).description == "LIST<LOCATION>")
    }
}
