import CloudSeedTestSupport
import Foundation
import Testing

@testable import CloudSeed
@testable import CloudSeedCore
@testable import CloudSeedReaders
@testable import CloudSeedSchema
@testable import CloudSeedStore

/// Names are chosen in the first pass from fingerprints and given again in each later pass from
/// the row itself: these check that every pass agrees, and the cases where the first pass must
/// look at the rows again. (Written as an extension for the suite's folder, store and helpers.)
extension ReferenceAndAssetTests {
    @Test func aReferenceToATypeThatTurnsUpLaterInTheDocumentIsStillInferred() throws {
        let document = try folder.write(
            "gallery.json",
            """
            {"Artwork": [{"title": "Dunes", "artist": "Mei Chen"}, {"title": "Harbour", "artist": "zoe muller"}],
             "Artist": [{"firstName": "Mei", "lastName": "Chen"}, {"firstName": "Zoë", "lastName": "Müller"}]}
            """)
        let summary = try importFiles([document])
        #expect(
            summary.plan.recordType("Artwork")?.fields["artist"]
                == PlannedField(
                    type: .reference, rule: .inferred, target: "Artist",
                    reason: "its name and every value name Artist records"))
        #expect(
            try records("Artwork").map(\.fields["artist"]) == [
                .reference(Reference(recordName: "Mei Chen")), .reference(Reference(recordName: "Zoe Muller")),
            ])
    }

    @Test func namesByPositionFromTwoSourcesOfOneTypeClash() throws {
        let first = try folder.write("a/notes.csv", "body\nx\ny\n")
        let second = try folder.write("b/notes.csv", "body\nz\n")
        #expect(
            errorMessages { _ = try importFiles([first, second]) } == [
                "\(second):2:1: two rows get the record name 'Note-1' (the other is at \(first):2:1); give each row its own name, for example with MappingOptions.nameTemplates"
            ])
        #expect(try records("Note").isEmpty)
    }

    @Test func idsOfTwoTypesThatGetOneNameAreQualifiedByTheirTypes() throws {
        // As json-server's db.json numbers each collection from 1.
        let document = try folder.write(
            "db.json",
            """
            {"posts": [{"id": 1, "title": "Hello"}, {"id": 2, "title": "Again"}],
             "comments": [{"id": 2, "body": "Nice", "postId": 1}, {"id": 3, "body": "Sure", "postId": 2}]}
            """)
        let summary = try importFiles([document])
        #expect(summary.plan.recordType("Post")?.namingRule == .qualifiedColumn("id"))
        #expect(try records("Post").map(\.recordID.recordName) == ["Post-1", "Post-2"])
        #expect(try records("Comment").map(\.recordID.recordName) == ["Comment-2", "Comment-3"])
        // The comments still point to their posts by id.
        #expect(
            try records("Comment").map(\.fields["postId"]) == [
                .reference(Reference(recordName: "Post-1")), .reference(Reference(recordName: "Post-2")),
            ])
    }

    @Test func recordsOfTwoTypesThatGetOneNameOtherwiseAreRefused() throws {
        let document = try folder.write(
            "db.json",
            """
            {"posts": [{"title": "Hello"}, {"title": "Again"}],
             "tags": [{"name": "News"}, {"name": "Hello"}]}
            """)
        #expect(
            errorMessages { _ = try importFiles([document]) } == [
                "\(document):2:29: record name 'Hello' is this Tag's and the Post's at \(document):1:12; a record name is unique in its zone, whatever the type: name one type's records apart, for example with the name template 'Tag=Tag {name}' (at tags[1])"
            ])
        #expect(try records("Post").isEmpty)
        #expect(try records("Tag").isEmpty)
    }

    @Test func aNaturalKeyWhoseValuesShareANameOnceTransliteratedDoesNotNameTheRecords() throws {
        let notes = try folder.write("notes.csv", "title,body\nZoë,x\nZoe,y\nAnna,z\n")
        let summary = try importFiles([notes])
        #expect(summary.plan.recordType("Note")?.namingRule == .position)
        #expect(try records("Note").map(\.recordID.recordName) == ["Note-1", "Note-2", "Note-3"])
    }

    @Test func aSharedNameIsRefusedForTheLaterRowOnlyWhenSkippingBadRows() throws {
        let people = try folder.write("people.csv", "id,age\nmei,40\nzoe,31\nmei,52\n")
        var options = MappingOptions()
        options.skipBadRows = true
        let importer = Importer(store: ContainerStore(backend: store), scope: StoreScope(), options: options, now: 0)
        var rejected: [String] = []
        let summary = try importer.run(
            [SourceFile(path: people)], rejected: { rejected += $0.jsonLines(wordingOptions: { $0.libraryWording }) })
        #expect(summary.counts == [ImportSummary.TypeCounts(recordType: "People", created: 2, refused: 1)])
        #expect(
            try records("People").map { [$0.recordID.recordName, "\($0.fields["age"]!)"] } == [
                ["mei", "\(RecordValue.int64(40))"], ["zoe", "\(RecordValue.int64(31))"],
            ])
        #expect(
            rejected == [
                #"{"file":"\#(people)","line":4,"column":1,"recordType":"People","reason":"two rows get the record name 'mei' (the other is at \#(people):2:1); give each row its own name, for example with MappingOptions.nameTemplates"}"#
            ])
    }

    @Test func randomNamesAreTheSameInTheReferenceIndexAndTheRecords() throws {
        let artists = try folder.write("artists.csv", "firstName,lastName\nMei,Chen\nZoë,Müller\n")
        let artworks = try folder.write("artworks.csv", "title,artist\nDunes,Mei Chen\nHarbour,Zoë Müller\n")
        var options = MappingOptions()
        options.randomNames = true
        let summary = try importFiles([artworks, artists], options: options)
        // The plan guessed from the first rows draws the names the plan of all rows draws.
        #expect(summary.readOnce)
        let artistNames = try records("Artist").map(\.recordID.recordName)
        #expect(
            artistNames.count == 2 && Set(artistNames).count == 2
                && artistNames.allSatisfy { UUID(uuidString: $0) != nil })
        let byFirstName = Dictionary(
            uniqueKeysWithValues: try records("Artist").map { ($0.fields["firstName"]!, $0.recordID.recordName) })
        let artistByTitle = Dictionary(
            uniqueKeysWithValues: try records("Artwork").map { ($0.fields["title"]!, $0.fields["artist"]) })
        #expect(
            artistByTitle == [
                .string("Dunes"): .reference(Reference(recordName: byFirstName[.string("Mei")]!)),
                .string("Harbour"): .reference(Reference(recordName: byFirstName[.string("Zoë")]!)),
            ])
    }
}
