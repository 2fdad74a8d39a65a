import Testing

@testable import CloudSeed
@testable import CloudSeedCore
@testable import CloudSeedReaders
@testable import CloudSeedSchema
@testable import CloudSeedStore

/// Untyped reals become DOUBLE only where storing them as numbers loses nothing that was written.
@Suite struct DecimalSpellingsTests {
    static func spellings(_ texts: [String]) -> DecimalSpellings {
        var spellings = DecimalSpellings()
        for var text in texts { text.withUTF8 { spellings.note($0) } }
        return spellings
    }

    @Test func findsTwoSpellingsOfOneNumberWhateverTheirOrder() {
        #expect(Self.spellings(["1.1", "1.2", "2.0", "1.10"]).pair == ["1.10", "1.1"])
        #expect(Self.spellings(["1.10", "1.2", "2.0", "1.1"]).pair == ["1.10", "1.1"])
        #expect(Self.spellings(["2.00", "7.5", "2.0"]).pair == ["2.00", "2.0"])
        #expect(Self.spellings(["-0.50", "-0.5"]).pair == ["-0.50", "-0.5"])
        // The first such number in byte order, with its longest and shortest spellings.
        #expect(Self.spellings(["3.10", "3.1", "1.100", "1.10", "1.1"]).pair == ["1.100", "1.1"])
    }

    @Test func findsNoneWhereEachNumberIsWrittenOneWay() {
        #expect(Self.spellings(["12.50", "3.00", "7.25", "12.50"]).differing == nil)
        #expect(Self.spellings(["1.5", "1.50e1", "15.0"]).differing == nil)
        #expect(Self.spellings(["1.1", "11.0", "1.01"]).differing == nil)
        #expect(Self.spellings(["1.5", "1.5"]).hasReals)
        #expect(!DecimalSpellings().hasReals)
    }

    @Test func mergesAsIfOneHadSeenEveryValue() {
        var first = Self.spellings(["1.1", "4.5"])
        first.merge(Self.spellings(["4.50", "9.9"]))
        #expect(first.pair == ["4.50", "4.5"])
        #expect(first.hasReals)
    }

    @Test func checksNoColumnOfMoreDifferentNumbersThanTheLimit() {
        let many = (0...DecimalSpellings.limit).map { "\($0).5" }
        let spellings = Self.spellings(many + ["1.50"])
        #expect(spellings.overflowing)
        #expect(spellings.differing == nil)
        var merged = Self.spellings(Array(many.prefix(DecimalSpellings.limit / 2 + 1)) + ["1.50"])
        #expect(merged.pair == ["1.50", "1.5"])
        merged.merge(Self.spellings(Array(many.suffix(DecimalSpellings.limit / 2 + 1))))
        #expect(merged.overflowing)
        #expect(merged.differing == nil)
    }

    @Test(arguments: [
        ("version", true), ("Version", true), ("appVersion", true), ("schema_version", true), ("versions", false),
        ("conversion", false), ("price", false),
    ])
    func namesVersions(name: String, isVersion: Bool) {
        #expect(VersionNames.isVersion(name) == isVersion)
    }

    /// A CSV of versions, prices and ratings.
    @Test func versionsStayTextAndMoneyBecomesDouble() throws {
        let csv = """
            title,version,appVersion,build,price,rating
            A,1.1,1.0,1,12.50,4.5
            B,1.2,1.5,2,3.00,3.5
            C,2.0,2.25,3,7.25,4.0
            D,1.10,2.0,4,0.99,5

            """
        let result = try ColumnTypingTests.imported([("artworks.csv", csv)])
        let artwork = try #require(result.summary.plan.recordType("Artwork"))
        #expect(
            artwork.sortedFieldNames.map { ImportSummary.describe($0, artwork.fields[$0]!, in: artwork).description }
                == [
                    "appVersion STRING (inferred: kept as text: 'appVersion' holds versions)  the field type 'Artwork.appVersion:STRING'",
                    "build INT64 (inferred)  the field type 'Artwork.build:INT64'",
                    "price DOUBLE (inferred)  the field type 'Artwork.price:DOUBLE'",
                    "rating DOUBLE (inferred)  the field type 'Artwork.rating:DOUBLE'",
                    "title STRING (inferred)  the field type 'Artwork.title:STRING'",
                    "version STRING (inferred: kept as text: 1.10 and 1.1 differ)  the field type 'Artwork.version:STRING'",
                ])
        // Each cell is quoted by SQLite: a text in quotes, as written; a number bare.
        let rows = try #require(result.tables["Artwork"])
        #expect(rows.map { $0.contains(.text("'1.10'")) } == [false, false, false, true])
        #expect(rows.map { $0.contains(.text("'2.0'")) } == [false, false, true, true])
        #expect(rows.map { $0.contains(.text("12.5")) } == [true, false, false, false])
        #expect(rows.map { $0.contains(.text("3.0")) } == [false, true, false, false])
    }
}

extension DecimalSpellings {
    /// ``differing`` as an array, to compare.
    fileprivate var pair: [String]? { differing.map { [$0.longer, $0.shorter] } }
}
