import Foundation
import Testing

@testable import CloudSeed
@testable import CloudSeedCore
@testable import CloudSeedReaders
@testable import CloudSeedSchema
@testable import CloudSeedStore

@Suite struct DocumentShapeTests {
    @Test func readsDjangoFixturesWithOneTypePerModel() throws {
        let read = try rows(
            #"[{"model": "app.Artist", "pk": 1, "fields": {"name": "Mei"}}, {"model": "app.artwork", "pk": "a/1", "fields": {"artist": 1}}]"#,
            format: .json)
        #expect(read.map(\.recordType) == ["Artist", "Artwork"])
        #expect(read.map(\.recordName) == ["Artist-1", "Artwork-a/1"])
        #expect(read[0].values == ["pk": .integer(1), "name": .string("Mei")])
    }

    @Test func readsCloudKitModifyRequests() throws {
        let read = try rows(
            #"{"operations": [{"operationType": "create", "record": {"recordType": "Artist", "recordName": "Mei Chen", "fields": {"firstName": {"value": "Mei"}}}}]}"#,
            format: .json)
        #expect(read.map(\.recordName) == ["Mei Chen"])
        #expect(read[0].values == ["firstName": .string("Mei")])
    }

    @Test func readsLibrariesWithRecordsKeyedByID() throws {
        let read = try rows(
            #"{"Major Version": 1, "Application Version": "12.1", "Tracks": {"58213": {"Track ID": 58213, "Name": "Song"}}, "Playlists": [{"Name": "Mix"}]}"#,
            format: .json)
        #expect(read.map(\.recordType) == ["Playlist", "Track", nil])
        #expect(read.map(\.recordName) == [nil, "58213", nil])
        #expect(read[2].values == ["Major Version": .integer(1), "Application Version": .string("12.1")])
    }

    @Test func readsFirebaseExportsAndLeavesJSONServersCounterOut() throws {
        let firebase = try rows(
            #"{"cards": {"0": {"term": "a", "show": true}, "-LC0PaUcLlSfubJjvyry": {"term": "b", "show": false}}}"#,
            format: .json)
        #expect(firebase.map(\.recordType) == ["Card", "Card"])
        #expect(firebase.map(\.recordName) == ["0", "-LC0PaUcLlSfubJjvyry"])
        let jsonServer = try rows(#"{"reviews": [{"id": 5, "title": "Dune"}], "nextId": 6}"#, format: .json)
        #expect(jsonServer.map(\.recordType) == ["Review"])
        // json-server's own example: its `profile` is one record of its own type.
        let example = try rows(
            #"{"posts": [{"id": 1, "title": "json-server"}], "comments": [], "profile": {"name": "typicode"}}"#,
            format: .json)
        #expect(example.map(\.recordType) == ["Post", "Profile"])
        #expect(example[1].values == ["name": .string("typicode")])
    }

    @Test func readsMongoDBExtendedJSON() throws {
        let read = try rows(
            #"[{"_id": {"$oid": "63c54428f5c110fc697828db"}, "createdAt": {"$date": {"$numberLong": "1673872424560"}}, "price": {"$numberDecimal": "9.99"}, "stock": {"$numberInt": "3"}, "blob": {"$binary": {"base64": "AQI=", "subType": "00"}}}]"#,
            format: .json)
        #expect(
            read[0].values == [
                "_id": .string("63c54428f5c110fc697828db"), "createdAt": .date(1_673_872_424_560), "price": .real(9.99),
                "stock": .integer(3), "blob": .data(Data([1, 2])),
            ])
    }

    @Test func readsAMongoDBDocumentsListOfIDsAsValues() throws {
        let read = try rows(
            #"{"_id": {"$oid": "63c5"}, "products": [{"$oid": "63d1"}, {"$oid": "63d2"}], "total": 29.49}"#,
            format: .json)
        #expect(read.map(\.recordType) == [nil])
        #expect(read[0].values["products"] == .array([.string("63d1"), .string("63d2")]))
    }

    @Test func readsAListOfNamesAsARecordPerName() throws {
        let countries = try rows(#"["France", "Italy"]"#, format: .json)
        #expect(countries.map(\.values) == [["name": .string("France")], ["name": .string("Italy")]])
        #expect(countries.map(\.position.keyPath) == ["[0]", "[1]"])
        let sizes = try rows(#"[38, 40.5]"#, format: .json)
        #expect(sizes.map(\.values) == [["value": .integer(38)], ["value": .real(40.5)]])
    }

    @Test func streamsRecordArraysOfEachType() throws {
        let read = try rows(#"{"dishes": [{"id": 0}, {"id": 1}], "comments": []}"#, format: .json)
        #expect(read.map(\.recordType) == ["Dish", "Dish"])
        #expect(read.map(\.position.keyPath) == ["dishes[0]", "dishes[1]"])
    }

    @Test func readsArraysOfOneShapeKeyedByNameAsGroupsOfOneType() throws {
        let cards = try rows(
            #"{"Citibank": [{"CardID": "53", "Title": "Citi"}, {"CardID": "3", "Title": "Dividend"}], "DBS": [{"CardID": "9", "Title": "Live Fresh"}], "Standard Chartered": [{"CardID": "12", "Title": "Manhattan"}]}"#,
            format: .json)
        #expect(cards.map(\.recordType) == [nil, nil, nil, nil])
        #expect(
            cards.map { $0.values["group"] }
                == ["Citibank", "Citibank", "DBS", "Standard Chartered"].map(PlainValue.string))
        #expect(cards.map(\.position.keyPath) == ["Citibank[0]", "Citibank[1]", "DBS[0]", "Standard Chartered[0]"])
        // Collections of one shape under plural keys stay a type each, as do collections of two shapes.
        let todos = try rows(
            #"{"todos": [{"id": 1, "title": "a"}], "notes": [{"id": 1, "title": "b"}]}"#, format: .json)
        #expect(todos.map(\.recordType) == ["Todo", "Note"])
        let gallery = try rows(#"{"Artist": [{"name": "Mei"}], "Artwork": [{"title": "Dunes"}]}"#, format: .json)
        #expect(gallery.map(\.recordType) == ["Artist", "Artwork"])
        #expect(gallery.allSatisfy { $0.values["group"] == nil })
    }

    @Test func readsObjectsKeyedByDataAsRecordsOfTheirEntries() throws {
        let cities = try rows(
            #"{"Alabama": {"Birmingham": {"population": 200733}, "Mobile": {"population": 187041}}, "Alaska": {"Juneau": {"population": 32255}}}"#,
            format: .json)
        #expect(cities.map(\.recordType) == [nil, nil, nil])
        #expect(
            cities.map(\.values) == [
                ["group": .string("Alabama"), "key": .string("Birmingham"), "population": .integer(200_733)],
                ["group": .string("Alabama"), "key": .string("Mobile"), "population": .integer(187_041)],
                ["group": .string("Alaska"), "key": .string("Juneau"), "population": .integer(32255)],
            ])
        #expect(cities.map(\.position.keyPath) == ["Alabama.Birmingham", "Alabama.Mobile", "Alaska.Juneau"])
        // Plain values under more keys than fields could be: a record per entry, its value in `value`.
        let zips = (0..<60).map { #""City \#($0)": ["\#(10000 + $0)"]"# }
        let states = try rows(
            "{\"Iowa\": {\(zips[..<30].joined(separator: ", "))}, \"Ohio\": {\(zips[30...].joined(separator: ", "))}}",
            format: .json)
        #expect(states.count == 60)
        #expect(
            states[31].values == [
                "group": .string("Ohio"), "key": .string("City 31"), "value": .array([.string("10031")]),
            ])
        // A few settings under their sections stay a record per section, and collections of two
        // shapes (a Firebase export's) a type each.
        let settings = try rows(#"{"General": {"volume": 3}, "Network": {"proxy": "none"}}"#, format: .json)
        #expect(settings.map(\.recordName) == ["General", "Network"])
        let firebase = try rows(
            #"{"cards": {"-La": {"term": "a"}}, "users": {"-Lb": {"email": "m@example.com"}}}"#, format: .json)
        #expect(firebase.map(\.recordType) == ["Card", "User"])
    }

    @Test func refusesScalarsAtTheTop() {
        #expect(
            readError("42", format: .json, file: "x.json")
                == "x.json:1:1: expected an array of records or an object at the top of the document, found a number")
    }
}
