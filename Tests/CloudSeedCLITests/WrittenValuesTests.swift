import CloudSeedTestSupport
import Foundation
import Testing

/// Values imported as their authors wrote them: versions kept as text, dates in the forms people
/// write, lists in CSV cells, and a CSV export that imports back to the same records.
@Suite struct WrittenValuesTests {
    let folder: TemporaryFolder

    init() throws { folder = try TemporaryFolder() }

    func cloudseed(_ arguments: String...) throws -> String {
        let result = try CommandRunner.run(arguments, in: folder.url)
        #expect(result.status == 0, "\(arguments): \(result.standardError)")
        return result.standardOutput
    }

    /// The plan's line for each field, from a summary.
    func choices(_ summary: String) -> [String] {
        summary.split(separator: "\n").filter { $0.hasPrefix("    ") }.map { $0.trimmingCharacters(in: .whitespaces) }
    }

    /// The fields of each record of a JSON Lines export, by record name.
    func fields(_ jsonl: String) throws -> [String: String] {
        var result: [String: String] = [:]
        for line in jsonl.split(separator: "\n") {
            let record = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let fields = try JSONSerialization.data(withJSONObject: record["fields"]!, options: .sortedKeys)
            result["\(record["recordName"]!)"] = String(decoding: fields, as: UTF8.self)
        }
        return result
    }

    @Test func versionsStayTextAndDatesAsWrittenBecomeTimestamps() throws {
        let releases = try folder.write(
            "releases.csv",
            #"""
            name,version,price,published,shipped,announced,reviewed
            a,1.1,12.50,11/26/2026,01/02/2025,"Tue, 03 Jun 2008 11:05:30 GMT",Jan 1 2000
            b,1.2,3.00,01/02/2025,03/04/2025,2008-06-03 11:05:30,1 January 2000
            c,2.0,7.25,,,,
            d,1.10,0.99,,,,

            """#)
        let summary = try cloudseed("import", releases)
        #expect(
            choices(summary) == [
                "announced TIMESTAMP (inferred)  --field Release.announced:TIMESTAMP",
                "name STRING (inferred)  --field Release.name:STRING",
                "price DOUBLE (inferred)  --field Release.price:DOUBLE",
                "published TIMESTAMP (inferred: dates written MM/dd/yyyy: a day over 12 tells)  --field Release.published:TIMESTAMP --date-format 'Release.published=MM/dd/yyyy'",
                "reviewed TIMESTAMP (inferred)  --field Release.reviewed:TIMESTAMP",
                "shipped STRING (inferred: kept as text: no day over 12 tells MM/dd/yyyy from dd/MM/yyyy; pin one with --date-format 'Release.shipped=dd/MM/yyyy')  --field Release.shipped:STRING",
                "version STRING (inferred: kept as text: 1.10 and 1.1 differ)  --field Release.version:STRING",
            ])
        let records = try fields(try cloudseed("export", "--format", "jsonl"))
        #expect(
            records["c"]
                == #"{"name":{"type":"STRING","value":"c"},"price":{"type":"DOUBLE","value":7.25},"version":{"type":"STRING","value":"2.0"}}"#
        )
        #expect(
            records["d"]
                == #"{"name":{"type":"STRING","value":"d"},"price":{"type":"DOUBLE","value":0.99},"version":{"type":"STRING","value":"1.10"}}"#
        )
        #expect(
            records["a"]
                == #"{"announced":{"type":"TIMESTAMP","value":1212491130000},"name":{"type":"STRING","value":"a"},"price":{"type":"DOUBLE","value":12.5},"published":{"type":"TIMESTAMP","value":1795651200000},"reviewed":{"type":"TIMESTAMP","value":946684800000},"shipped":{"type":"STRING","value":"01\/02\/2025"},"version":{"type":"STRING","value":"1.1"}}"#
        )
        #expect(
            records["b"]
                == #"{"announced":{"type":"TIMESTAMP","value":1212491130000},"name":{"type":"STRING","value":"b"},"price":{"type":"DOUBLE","value":3},"published":{"type":"TIMESTAMP","value":1735776000000},"reviewed":{"type":"TIMESTAMP","value":946684800000},"shipped":{"type":"STRING","value":"03\/04\/2025"},"version":{"type":"STRING","value":"1.2"}}"#
        )

        // Pinned day first, in a zone: read again into a new store.
        let pinned = try cloudseed(
            "import", releases, "--store", "pinned.sqlite", "--date-format", "shipped=dd/MM/yyyy", "--timezone",
            "Europe/Paris")
        #expect(
            choices(pinned).filter { $0.hasPrefix("shipped") } == [
                "shipped TIMESTAMP (inferred: dates written dd/MM/yyyy, as --date-format says)  --field Release.shipped:TIMESTAMP --date-format 'Release.shipped=dd/MM/yyyy'"
            ])
        let again = try fields(try cloudseed("export", "--format", "jsonl", "--store", "pinned.sqlite"))
        // 1 February 2025 and 3 April 2025 at midnight in Paris (winter, then summer time).
        #expect(again["a"]?.contains(#""shipped":{"type":"TIMESTAMP","value":1738364400000}"#) == true)
        #expect(again["b"]?.contains(#""shipped":{"type":"TIMESTAMP","value":1743631200000}"#) == true)
        #expect(again["b"]?.contains(#""announced":{"type":"TIMESTAMP","value":1212483930000}"#) == true)
    }

    @Test func aBadDateFormatIsRefusedWithWhatToWrite() throws {
        let result = try CommandRunner.run(
            ["import", try folder.write("a.csv", "name\nx\n"), "--date-format", "yyyy-MM-dd"], in: folder.url)
        #expect(result.status != 0)
        #expect(
            result.standardError.contains(
                "--date-format 'yyyy-MM-dd': use MM/dd/yyyy (month first) or dd/MM/yyyy (day first), with /, . or - between the numbers, for one field as [type.]field=FORMAT"
            ))
    }

    @Test func aCSVExportOfListsLocationsAndReferencesImportsBackToTheSameExport() throws {
        let artists = try folder.write("artists.csv", "name,born\nMei Chen,1980-11-30\nZoë Müller,Jan 2 1971\n")
        let artworks = try folder.write(
            "artworks.csv",
            #"""
            title,artist,tags,sizes,latitude,longitude
            Harbor,Mei Chen,"[""oil"",""portrait""]","[10, 20.5]",59.33,18.07
            Fenêtre,Zoë Müller,[],[],-12.5,130.25
            Dusk,Mei Chen,"[""still life"", ""Zoë \""quoted\"""", ""a,b""]",[3],,

            """#)
        let summary = try cloudseed("import", artists, artworks)
        #expect(
            choices(summary).filter { $0.hasPrefix("tags") || $0.hasPrefix("sizes") || $0.hasPrefix("artist") } == [
                "artist REFERENCE → Artist (inferred: its name and every value name Artist records)  --reference Artwork.artist:Artist",
                "sizes LIST<DOUBLE> (inferred)  --field Artwork.sizes:LIST<DOUBLE>",
                "tags LIST<STRING> (inferred)  --field Artwork.tags:LIST<STRING>",
            ])
        let export = try cloudseed("export", "--format", "jsonl")
        #expect(export.contains(#""tags":{"value":["still life","Zoë \"quoted\"","a,b"],"type":"STRING_LIST"}"#))
        #expect(export.contains(#""location":{"value":{"latitude":59.33,"longitude":18.07},"type":"LOCATION"}"#))

        // The CSV export, imported into the same store, changes nothing: the same export to the byte.
        _ = try cloudseed("export", "--format", "csv", "--out", "csv")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path("csv")).sorted().map {
            folder.path("csv/\($0)")
        }
        #expect(files.map { URL(fileURLWithPath: $0).lastPathComponent } == ["Artist.csv", "Artwork.csv"])
        let reimport = try CommandRunner.run(["import"] + files, in: folder.url)
        #expect(reimport.status == 0, "\(reimport.standardError)")
        #expect(reimport.standardOutput.contains("  Artwork             0         0         3         0\n"))
        #expect(try cloudseed("export", "--format", "jsonl") == export)

        // Into a new store, the same records.
        let fresh = try CommandRunner.run(["import"] + files + ["--store", "fresh.sqlite"], in: folder.url)
        #expect(fresh.status == 0, "\(fresh.standardError)")
        #expect(try fields(try cloudseed("export", "--format", "jsonl", "--store", "fresh.sqlite")) == fields(export))
    }
}
