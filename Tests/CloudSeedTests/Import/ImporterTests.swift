import CloudSeedTestSupport
import Crypto
import Foundation
import Testing

@testable import CloudKitWire
@testable import CloudSeed
@testable import CloudSeedCore
@testable import CloudSeedReaders
@testable import CloudSeedSchema
@testable import CloudSeedStore

@Suite struct ImporterTests {
    let folder: TemporaryFolder
    let store: SQLiteContainerStore
    let scope = StoreScope()

    init() throws {
        folder = try TemporaryFolder()
        store = try SQLiteContainerStore(path: folder.path("store.sqlite"))
    }

    func importFiles(_ paths: [String], options: MappingOptions = MappingOptions(), scope: StoreScope? = nil) throws
        -> ImportSummary
    {
        try Importer(
            store: ContainerStore(backend: store), scope: scope ?? self.scope, options: options, now: 1_700_000_000_000
        )
        .run(paths.map { try SourceFile(path: $0) })
    }

    func records(_ scope: StoreScope? = nil) throws -> [CloudRecord] {
        var result: [CloudRecord] = []
        try store.forEachRecord(in: scope ?? self.scope, recordType: nil) { result.append($0) }
        return result
    }

    @Test func importsToDoItemsWithInferredTypes() throws {
        let summary = try importFiles([Repository.sample("ToDoItems/ToDoItems.plist")])
        #expect(summary.counts == [ImportSummary.TypeCounts(recordType: "ToDoItem", created: 3)])
        #expect(
            try store.schema(of: scope.schemaScope).recordTypes["ToDoItem"]?.fields
                == ["title": .string, "dueDate": .timestamp, "isCompleted": .int64])
        #expect(summary.plan.recordType("ToDoItem")?.namingRule == .naturalKey("title"))
        let apples = try #require(try records().first { $0.recordID.recordName == "Get apples" })
        #expect(
            apples.fields == [
                "title": .string("Get apples"), "dueDate": .timestamp(1_572_220_800_000), "isCompleted": .int64(0),
            ])
        #expect(apples.system.createdTimestamp == 1_700_000_000_000)
        #expect(apples.system.changeTag == "1")
    }

    @Test func flatRowsAndRowsThatNeedPreparingMakeTheSameKindOfRecordsInOneRun() throws {
        // Row 1 is flat; row 2 lacks its latitude, so its longitude stays a field; row 3 is JSON
        // Lines with a nested dictionary, flattened into fields; row 4 has an empty list, left out.
        let csv = try folder.write("Place.csv", "title,price,latitude,longitude,tags\nAlpha,1.5,10,20,\nBeta,2,,30,\n")
        let lines = try folder.write(
            "Place.jsonl",
            "{\"title\":\"Gamma\",\"price\":3,\"size\":{\"w\":2}}\n{\"title\":\"Delta\",\"tags\":[],\"price\":4}\n")
        let summary = try importFiles([csv, lines])
        #expect(summary.counts == [ImportSummary.TypeCounts(recordType: "Place", created: 4)])
        let byName = Dictionary(uniqueKeysWithValues: try records().map { ($0.recordID.recordName, $0) })
        #expect(
            byName["Alpha"]?.fields == [
                "title": .string("Alpha"), "price": .double(1.5),
                "location": .location(Location(latitude: 10, longitude: 20)),
            ])
        #expect(byName["Beta"]?.fields == ["title": .string("Beta"), "price": .double(2), "longitude": .int64(30)])
        #expect(byName["Gamma"]?.fields == ["title": .string("Gamma"), "price": .double(3), "size_w": .int64(2)])
        #expect(byName["Delta"]?.fields == ["title": .string("Delta"), "price": .double(4)])
        #expect(byName.values.map(\.system.changeTag).sorted() == ["1", "2", "3", "4"])
    }

    @Test(arguments: ["ToDoItems/ToDoItems.json", "ToDoItems/ToDoItems.csv", "ToDoItems/ToDoItems.binary.plist"])
    func everyFormatOfTheItemsGivesTheSameRecords(path: String) throws {
        _ = try importFiles([Repository.sample("ToDoItems/ToDoItems.plist")])
        let expected = try records()
        let other = try TemporaryFolder()
        let otherStore = try SQLiteContainerStore(path: other.path("store.sqlite"))
        _ = try Importer(store: ContainerStore(backend: otherStore), scope: scope, now: 1_700_000_000_000).run([
            SourceFile(path: Repository.sample(path))
        ])
        var actual: [CloudRecord] = []
        try otherStore.forEachRecord(in: scope, recordType: nil) { actual.append($0) }
        #expect(actual == expected)
        #expect(try otherStore.schema(of: scope.schemaScope) == store.schema(of: scope.schemaScope))
    }

    @Test func importingAgainChangesNothing() throws {
        _ = try importFiles([Repository.sample("ToDoItems/ToDoItems.plist")])
        let before = try records()
        let summary = try importFiles([Repository.sample("ToDoItems/ToDoItems.plist")])
        #expect(summary.counts == [ImportSummary.TypeCounts(recordType: "ToDoItem", unchanged: 3)])
        #expect(try records() == before)
    }

    @Test func importingAgainSavesOnlyTheRowsThatChanged() throws {
        let first = try folder.write(
            "Item.csv", "recordName,title,count,price\na,Apple,1,1.5\nb,Banana,2,2.5\nc,Cherry,3,3.5\n")
        _ = try importFiles([first])
        let before = Dictionary(uniqueKeysWithValues: try records().map { ($0.recordID.recordName, $0) })
        // b's price changes; c leaves its count out, which changed keys keep.
        let again = try folder.write(
            "Item.csv", "recordName,title,count,price\na,Apple,1,1.5\nb,Banana,2,2.75\nc,Cherry,,3.5\n")
        let summary = try Importer(store: ContainerStore(backend: store), scope: scope, now: 1_800_000_000_000).run([
            SourceFile(path: again)
        ])
        #expect(summary.counts == [ImportSummary.TypeCounts(recordType: "Item", updated: 1, unchanged: 2)])
        let after = Dictionary(uniqueKeysWithValues: try records().map { ($0.recordID.recordName, $0) })
        #expect(after["a"] == before["a"])
        #expect(after["c"] == before["c"])
        #expect(after["b"]?.fields == ["title": .string("Banana"), "count": .int64(2), "price": .double(2.75)])
        #expect(after["b"]?.system.modifiedTimestamp == 1_800_000_000_000)
        #expect(after["b"]?.system.changeTag == "4")
    }

    @Test func importingAgainFindsEachRecordByNameInAnyOrder() throws {
        // Stored in file order. Read again with two rows swapped, one of them changed, then reversed,
        // then after a new row: the row after the last one found is tried first, and every record
        // is still found by its own name.
        // A field named `rowid` too, which SQLite's own name for a row's id must not be taken for.
        _ = try importFiles([
            try folder.write("Item.csv", "recordName,price,rowid\na,1,9\nb,2,9\nc,3,9\nd,4,9\ne,5,9\n")
        ])
        let swapped = try importFiles([try folder.write("Item.csv", "recordName,price\na,1\nb,2\nd,4\nc,30\ne,5\n")])
        #expect(swapped.counts == [ImportSummary.TypeCounts(recordType: "Item", updated: 1, unchanged: 4)])
        let reversed = try importFiles([try folder.write("Item.csv", "recordName,price\ne,5\nd,4\nc,30\nb,2\na,1\n")])
        #expect(reversed.counts == [ImportSummary.TypeCounts(recordType: "Item", unchanged: 5)])
        let added = try importFiles([try folder.write("Item.csv", "recordName,price\nf,6\na,1\nb,2\nc,31\nd,4\ne,5\n")])
        #expect(added.counts == [ImportSummary.TypeCounts(recordType: "Item", created: 1, updated: 1, unchanged: 4)])
        let prices = Dictionary(
            uniqueKeysWithValues: try records().map { ($0.recordID.recordName, $0.fields["price"]) })
        #expect(
            prices == ["a": .int64(1), "b": .int64(2), "c": .int64(31), "d": .int64(4), "e": .int64(5), "f": .int64(6)])
    }

    @Test func changedKeysUpdatesOnlyTheGivenFields() throws {
        _ = try importFiles([Repository.sample("ToDoItems/ToDoItems.plist")])
        let change = try folder.write("ToDoItems.csv", "recordName,title\nWater the plants,Water the roses\n")
        let summary = try Importer(store: ContainerStore(backend: store), scope: scope, now: 1_800_000_000_000).run([
            SourceFile(path: change)
        ])
        #expect(summary.counts == [ImportSummary.TypeCounts(recordType: "ToDoItem", updated: 1)])
        let updated = try #require(try records().first { $0.recordID.recordName == "Water the plants" })
        #expect(updated.fields["title"] == .string("Water the roses"))
        #expect(updated.fields["isCompleted"] == .int64(1))
        #expect(updated.system.createdTimestamp == 1_700_000_000_000)
        #expect(updated.system.modifiedTimestamp == 1_800_000_000_000)
        #expect(updated.system.changeTag == "4")
        #expect(try records().count == 3)
    }

    @Test func productionRefusesNewTypesAndWritesNothing() throws {
        let production = StoreScope(environment: .production)
        let path = Repository.sample("ToDoItems/ToDoItems.csv")
        #expect(
            errorMessages { _ = try importFiles([path], scope: production) } == [
                "\(path):2:1: Cannot create new type ToDoItem in production schema; import into the development environment, where types are created just in time"
            ])
        #expect(try store.inventory().zones.isEmpty)
    }

    @Test func productionRefusesNewFields() throws {
        let production = StoreScope(environment: .production)
        try store.write { transaction in
            try transaction.createRecordType("ToDoItem", in: production.schemaScope)
            try transaction.addField("title", type: .string, to: "ToDoItem", in: production.schemaScope)
        }
        let path = Repository.sample("ToDoItems/ToDoItems.csv")
        #expect(
            errorMessages { _ = try importFiles([path], scope: production) } == [
                "\(path):2:12: Cannot create or modify field 'dueDate' in record 'ToDoItem' in production schema; import into the development environment, where fields are created just in time",
                "\(path):2:33: Cannot create or modify field 'isCompleted' in record 'ToDoItem' in production schema; import into the development environment, where fields are created just in time",
            ])
        #expect(try records(production).isEmpty)
    }

    @Test func aValueThatDoesNotFitTheStoredTypeFailsTheWholeRun() throws {
        _ = try importFiles([Repository.sample("ToDoItems/ToDoItems.plist")])
        let before = try records()
        let good = try folder.write("more/ToDoItems.csv", "recordName,title,isCompleted\nnew-one,Fine,true\n")
        let bad = try folder.write("ToDoItems.csv", "recordName,title,isCompleted\nbad-one,Broken,abc\n")
        #expect(
            errorMessages { _ = try importFiles([good, bad]) } == [
                "\(bad):2:16: invalid attempt to set value type STRING for field 'isCompleted' for type 'ToDoItem', defined to be: INT64; the store's schema defines 'isCompleted' as INT64: fix the value"
            ])
        #expect(try records() == before)
    }

    @Test func cloudKitJSONWithEveryFieldTypeRoundTrips() throws {
        var options = MappingOptions()
        options.allowDangling = true  // its assets are metadata only
        _ = try importFiles([Repository.sample("CloudKit/AllTypes.json")], options: options)
        let imported = try records()
        #expect(imported.map(\.recordID.recordName) == ["every-type", "sparse"])
        let specimen = imported[0]
        #expect(specimen.fields["smallest"] == .int64(.min))
        #expect(specimen.fields["huge"] == .double(-1.7976931348623157e308))
        #expect(specimen.fields["moonLanding"] == .timestamp(-14_182_940_000))
        #expect(specimen.fields["parent"] == .reference(Reference(recordName: "Mei Chen", action: .deleteSelf)))
        #expect(
            specimen.fields["picture"]
                == .asset(AssetReference(fileChecksum: "AYz3bAAPNAkUFj6Lsw1LKl0GBQBx", size: 48213)))
        #expect(specimen.fields["empty"] == .string(""))
        #expect(specimen.fields.count == 23)
        #expect(imported[1].fields == ["text": .string("only text is set")])

        let exported = try folder.write(
            "export.json", "{\"records\":[" + imported.map(CloudKitJSON.record).joined(separator: ",") + "]}")
        let again = try TemporaryFolder()
        let secondStore = try SQLiteContainerStore(path: again.path("store.sqlite"))
        _ = try Importer(
            store: ContainerStore(backend: secondStore), scope: scope, options: options, now: 1_700_000_000_000
        ).run([
            SourceFile(path: exported)
        ])
        var reimported: [CloudRecord] = []
        try secondStore.forEachRecord(in: scope, recordType: nil) { reimported.append($0) }
        #expect(reimported == imported)
    }

    @Test func storesAssetFilesByContent() throws {
        let image = Data([0x89, 0x50, 0x4E, 0x47, 1, 2, 3])
        try image.write(to: folder.url.appendingPathComponent("a.png"))
        try image.write(to: folder.url.appendingPathComponent("b.png"))
        let source = try folder.write("photos.csv", "title,image\nOne,a.png\nTwo,b.png\n")
        let options = MappingOptions(fieldTypes: [FieldTypeOverride(field: "image", type: .asset)])
        _ = try importFiles([source], options: options)
        let checksum = SHA256.hexDigest(of: image)
        #expect(
            try records().map { $0.fields["image"] }
                == Array(repeating: .asset(AssetReference(fileChecksum: checksum, size: 7)), count: 2))
    }

    @Test func refusesAssetPathsOutsideTheSourceFolder() throws {
        let source = try folder.write("photos.csv", "title,image\nOne,../../etc/passwd\n")
        let options = MappingOptions(fieldTypes: [FieldTypeOverride(field: "image", type: .asset)])
        #expect(
            errorMessages { _ = try importFiles([source], options: options) } == [
                "\(source):2:5: the asset path '../../etc/passwd' leads outside the source file's folder; move the file inside it, or pass MappingOptions.allowOutsideAssets"
            ])
    }

    @Test func namesRecordsByTemplateAndRefusesDuplicates() throws {
        let source = try folder.write(
            "artists.csv", "firstName,lastName,catalogNumber\nMei,Chen,115\nZoë,Müller,116\nMei,Chen,117\n")
        let options = MappingOptions(nameTemplates: [NameTemplate(template: "{catalogNumber} {lastName}, {firstName}")])
        _ = try importFiles([source], options: options)
        #expect(try records().map(\.recordID.recordName) == ["115 Chen, Mei", "116 Muller, Zoe", "117 Chen, Mei"])
        let twice = MappingOptions(nameTemplates: [NameTemplate(template: "{firstName} {lastName}")])
        #expect(
            errorMessages { _ = try importFiles([source], options: twice) } == [
                "\(source):4:1: two rows get the record name 'Mei Chen' (the other is at \(source):2:1); give each row its own name, for example with MappingOptions.nameTemplates"
            ])
    }

    @Test func refusesRecordsOverOneMegabyte() throws {
        let source = try folder.write("notes.csv", "title,body\nbig,\(String(repeating: "x", count: 1_100_000))\n")
        #expect(
            errorMessages { _ = try importFiles([source]) } == [
                "\(source):2:1: record 'big' of type Note is 1100003 bytes, over CloudKit's limit of 1048576 bytes; move large values into an ASSET field"
            ])
    }

    @Test func stopsAfterTwentyErrors() throws {
        _ = try importFiles([Repository.sample("ToDoItems/ToDoItems.plist")])
        let rows = (1...30).map { "r\($0),abc" }.joined(separator: "\n")
        let source = try folder.write("ToDoItems.csv", "recordName,isCompleted\n\(rows)\n")
        #expect(errorMessages { _ = try importFiles([source]) }.count == 20)
    }
}
