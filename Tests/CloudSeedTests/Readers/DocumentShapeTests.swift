import Testing

@testable import CloudSeed

@Suite struct DocumentShapeTests {
    @Test func readsDjangoFixturesWithOneTypePerModel() throws {
        let read = try rows(
            #"[{"model": "app.Artist", "pk": 1, "fields": {"name": "Mei"}}, {"model": "app.artwork", "pk": "a/1", "fields": {"artist": 1}}]"#,
            format: .json)
        #expect(read.map(\.recordType) == ["app_artist", "app_artwork"])
        #expect(read.map(\.recordName) == ["app_artist-1", "app_artwork-a/1"])
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
            #"{"Major Version": 1, "Tracks": {"58213": {"Track ID": 58213, "Name": "Song"}}, "Playlists": [{"Name": "Mix"}]}"#,
            format: .json)
        #expect(read.map(\.recordType) == ["Playlist", "Track", nil])
        #expect(read.map(\.recordName) == [nil, "58213", nil])
        #expect(read[2].values == ["Major Version": .integer(1)])
    }

    @Test func streamsRecordArraysOfEachType() throws {
        let read = try rows(#"{"dishes": [{"id": 0}, {"id": 1}], "comments": []}"#, format: .json)
        #expect(read.map(\.recordType) == ["Dish", "Dish"])
        #expect(read.map(\.position.keyPath) == ["dishes[0]", "dishes[1]"])
    }

    @Test func refusesScalarsAtTheTop() {
        #expect(
            readError("42", format: .json, file: "x.json")
                == "x.json:1:1: expected an array of records or an object at the top of the document, found a number")
    }
}
