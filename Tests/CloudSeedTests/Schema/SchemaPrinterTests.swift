import Testing

@testable import CloudSeed

@Suite struct SchemaPrinterTests {
    @Test func printsInCktoolLayout() {
        let schema = Schema(recordTypes: [
            "ToDoItem": RecordTypeSchema(name: "ToDoItem", fields: ["title": .string, "dueDate": .timestamp, "isCompleted": .int64]),
            "Artist": RecordTypeSchema(name: "Artist", fields: ["CD_name": .string, "tags": .list(.string)]),
        ])
        #expect(SchemaPrinter.print(schema) == """
            DEFINE SCHEMA

                RECORD TYPE Artist (
                    CD_name         STRING,
                    "___createTime" TIMESTAMP,
                    "___createdBy"  REFERENCE,
                    "___etag"       STRING,
                    "___modTime"    TIMESTAMP,
                    "___modifiedBy" REFERENCE,
                    "___recordID"   REFERENCE,
                    tags            LIST<STRING>,
                    GRANT WRITE TO "_creator",
                    GRANT CREATE TO "_icloud",
                    GRANT READ TO "_world"
                );

                RECORD TYPE ToDoItem (
                    "___createTime" TIMESTAMP,
                    "___createdBy"  REFERENCE,
                    "___etag"       STRING,
                    "___modTime"    TIMESTAMP,
                    "___modifiedBy" REFERENCE,
                    "___recordID"   REFERENCE,
                    dueDate         TIMESTAMP,
                    isCompleted     INT64,
                    title           STRING,
                    GRANT WRITE TO "_creator",
                    GRANT CREATE TO "_icloud",
                    GRANT READ TO "_world"
                );

            """)
    }
}
