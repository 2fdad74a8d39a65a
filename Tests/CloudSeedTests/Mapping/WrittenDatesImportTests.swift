import Testing

@testable import CloudSeed
@testable import CloudSeedCore
@testable import CloudSeedReaders
@testable import CloudSeedSchema
@testable import CloudSeedStore

/// CSV columns of dates as people write them are typed the same cell by cell and row by row.
@Suite struct WrittenDatesImportTests {
    static let artworks = #"""
        title,published,released,updated,announced
        A,11/26/2026,01/02/2025,2008-06-03 11:05:30,"Tue, 03 Jun 2008 11:05:30 GMT"
        B,01/02/2025,03/04/2025,Jan 1 2000,1 January 2000
        C,,,"January 1, 2000 10:00","Tue, 03 Jun 2008 11:05:30 -0700"

        """#

    static func describe(_ result: ImportSummary) throws -> [String] {
        let artwork = try #require(result.plan.recordType("Artwork"))
        return artwork.sortedFieldNames.map { ImportSummary.describe($0, artwork.fields[$0]!, in: artwork).description }
    }

    @Test func aColumnDecidesTheOrderOfItsDatesOrStaysText() throws {
        let result = try ColumnTypingTests.imported([("artworks.csv", Self.artworks)])
        #expect(
            try Self.describe(result.summary) == [
                "announced TIMESTAMP (inferred)  the field type 'Artwork.announced:TIMESTAMP'",
                "published TIMESTAMP (inferred: dates written MM/dd/yyyy: a day over 12 tells)  the field type 'Artwork.published:TIMESTAMP' the date format 'Artwork.published=MM/dd/yyyy'",
                "released STRING (inferred: kept as text: no day over 12 tells MM/dd/yyyy from dd/MM/yyyy; pin one with the date format 'Artwork.released=dd/MM/yyyy')  the field type 'Artwork.released:STRING'",
                "title STRING (inferred)  the field type 'Artwork.title:STRING'",
                "updated TIMESTAMP (inferred)  the field type 'Artwork.updated:TIMESTAMP'",
            ])
        let rows = try #require(result.tables["Artwork"])
        #expect(rows.map { $0.contains(.text("'2026-11-26T00:00:00.000Z'")) } == [true, false, false])
        #expect(rows.map { $0.contains(.text("'2025-01-02T00:00:00.000Z'")) } == [false, true, false])
        #expect(rows.map { $0.contains(.text("'01/02/2025'")) } == [true, false, false])
        #expect(rows.map { $0.contains(.text("'2008-06-03T11:05:30.000Z'")) } == [true, false, false])
        #expect(rows.map { $0.contains(.text("'2000-01-01T00:00:00.000Z'")) } == [false, true, false])
        #expect(rows.map { $0.contains(.text("'2000-01-01T10:00:00.000Z'")) } == [false, false, true])
        #expect(rows.map { $0.contains(.text("'2008-06-03T18:05:30.000Z'")) } == [false, false, true])
    }

    @Test func dateFormatAndTimeZonePinHowDatesAreRead() throws {
        var options = MappingOptions()
        options.dateFormats = [try DateFormatPin(parsing: "released=dd/MM/yyyy")]
        options.timeZone = try TimeZoneChoice(parsing: "+02:00")
        let result = try ColumnTypingTests.imported([("artworks.csv", Self.artworks)], options: options)
        #expect(
            try Self.describe(result.summary).filter { $0.hasPrefix("published") || $0.hasPrefix("released") } == [
                "published TIMESTAMP (inferred: dates written MM/dd/yyyy: a day over 12 tells)  the field type 'Artwork.published:TIMESTAMP' the date format 'Artwork.published=MM/dd/yyyy'",
                "released TIMESTAMP (inferred: dates written dd/MM/yyyy, as the date format says)  the field type 'Artwork.released:TIMESTAMP' the date format 'Artwork.released=dd/MM/yyyy'",
            ])
        let rows = try #require(result.tables["Artwork"])
        // Midnight at +02:00 is 22:00 UTC the day before; a zone written wins.
        #expect(rows.map { $0.contains(.text("'2025-01-31T22:00:00.000Z'")) } == [true, false, false])
        #expect(rows.map { $0.contains(.text("'2025-04-02T22:00:00.000Z'")) } == [false, true, false])
        #expect(rows.map { $0.contains(.text("'2026-11-25T22:00:00.000Z'")) } == [true, false, false])
        #expect(rows.map { $0.contains(.text("'2008-06-03T09:05:30.000Z'")) } == [true, false, false])
        #expect(rows.map { $0.contains(.text("'2008-06-03T11:05:30.000Z'")) } == [true, false, false])
        #expect(rows.map { $0.contains(.text("'2008-06-03T18:05:30.000Z'")) } == [false, false, true])
    }

    @Test func aPinnedOrderTheValuesDenyIsAnErrorAtTheValue() throws {
        var options = MappingOptions()
        options.dateFormats = [try DateFormatPin(parsing: "dd/MM/yyyy")]
        let error = #expect(throws: CloudSeedError.self) {
            try ColumnTypingTests.imported([("artworks.csv", Self.artworks)], options: options)
        }
        #expect(
            error?.message
                == "invalid attempt to set value type STRING for field 'published' for type 'Artwork', defined to be: TIMESTAMP ('11/26/2026' is no date written dd/MM/yyyy); fix the value"
        )
        #expect(error?.position?.line == 2)
        #expect(error?.position?.column == 3)
    }
}
