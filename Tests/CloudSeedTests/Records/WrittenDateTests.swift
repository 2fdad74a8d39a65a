import Testing

@testable import CloudSeed
@testable import CloudSeedCore
@testable import CloudSeedReaders
@testable import CloudSeedSchema
@testable import CloudSeedStore

/// Dates as people write them, to the millisecond, whatever the machine's zone and locale.
@Suite struct WrittenDateTests {
    static func milliseconds(_ text: String, _ reading: DateReading? = nil) -> Int64? {
        DateReading.milliseconds(of: text, reading: reading)
    }

    @Test(arguments: [
        // RFC 2822 and RFC 1123, with and without a weekday, seconds or zone.
        ("Tue, 03 Jun 2008 11:05:30 GMT", Int64(1_212_491_130_000)),
        ("Tue, 3 Jun 2008 11:05:30 +0000", 1_212_491_130_000),
        ("Tue, 03 Jun 2008 11:05:30 -0700", 1_212_516_330_000),
        ("Tue, 03 Jun 2008 11:05:30 EDT", 1_212_505_530_000),
        ("03 Jun 2008 11:05:30 UT", 1_212_491_130_000),
        ("Tuesday, 3 June 2008 11:05:30", 1_212_491_130_000),
        ("Tue, 03 Jun 2008 11:05", 1_212_491_100_000),
        // Month names, either side of the day, any case, with a comma or a point.
        ("Jan 1 2000", 946_684_800_000), ("Jan 1, 2000", 946_684_800_000), ("January 1, 2000", 946_684_800_000),
        ("1 January 2000", 946_684_800_000), ("1 jan 2000", 946_684_800_000), ("JAN. 1, 2000", 946_684_800_000),
        ("Sept 9 1999 08:07:06.5", 936_864_426_500), ("Dec 31 1969 23:59:59", -1000),
        // The day's ordinal, and `of` before the month.
        ("May 5th, 2021", 1_620_172_800_000), ("January 1st, 2000", 946_684_800_000),
        ("Jan 22nd 2000", 948_499_200_000), ("1st of January 2000", 946_684_800_000),
        ("23rd March 2000", 953_769_600_000), ("Jan 11th, 2000", 947_548_800_000),
        // The year first, as Japan and China write it.
        ("2000/01/01", 946_684_800_000), ("2000.1.22 10:30", 948_537_000_000),
        // ISO 8601 with a space, as databases write it.
        ("2008-06-03 11:05:30", 1_212_491_130_000),
    ])
    func readsDatesWrittenWithoutNumbersAlone(text: String, milliseconds: Int64) {
        #expect(Self.milliseconds(text) == milliseconds, "\(text)")
        #expect(InferredKind(of: .text(text)) == .timestamp, "\(text)")
    }

    @Test func readsDatesInNumbersInTheOrderGiven() {
        let monthFirst = DateReading(order: .monthFirst)
        let dayFirst = DateReading(order: .dayFirst)
        #expect(Self.milliseconds("11/26/2026", monthFirst) == 1_795_651_200_000)
        #expect(Self.milliseconds("26/11/2026", dayFirst) == 1_795_651_200_000)
        #expect(Self.milliseconds("26.11.2026 14:30", dayFirst) == 1_795_703_400_000)
        #expect(Self.milliseconds("2-29-1960 23:59:59.999", monthFirst) == -310_435_200_001)
        #expect(Self.milliseconds("01/02/2025", monthFirst) == 1_735_776_000_000)
        #expect(Self.milliseconds("11/26/2026 10:30 PM", monthFirst) == 1_795_732_200_000)
        #expect(Self.milliseconds("11/26/2026 12:05:09 am", monthFirst) == 1_795_651_509_000)
        #expect(Self.milliseconds("11/26/2026 13:05 PM", monthFirst) == nil)
        #expect(Self.milliseconds("01/02/2025", dayFirst) == 1_738_368_000_000)
        #expect(Self.milliseconds("26/11/2026", monthFirst) == nil)
        // The default reading reads no date in numbers: its field decides the order.
        #expect(Self.milliseconds("11/26/2026") == nil)
        // ISO 8601 reads as ever, whatever the order.
        #expect(Self.milliseconds("2026-11-26", dayFirst) == 1_795_651_200_000)
    }

    @Test func tellsTheOrdersADateInNumbersAllows() {
        #expect(InferredKind(of: .text("11/26/2026")) == .numericDate([.monthFirst, .slash]))
        #expect(InferredKind(of: .text("26/11/2026")) == .numericDate([.dayFirst, .slash]))
        #expect(InferredKind(of: .text("01/02/2025")) == .numericDate([.monthFirst, .dayFirst, .slash]))
        #expect(InferredKind(of: .text("1.2.2025 10:00")) == .numericDate([.monthFirst, .dayFirst, .dot]))
        // Dates with points alone are day first wherever they are written.
        #expect(InferredKind.numericDate([.monthFirst, .dayFirst, .dot]).fieldType == .timestamp)
        #expect(NumericDateForms([.monthFirst, .dayFirst, .dot]).order == .dayFirst)
        #expect(NumericDateForms([.monthFirst, .dayFirst, .dot, .slash]).order == nil)
        let undecided = InferredKind.numericDate([.monthFirst, .dayFirst, .slash])
        #expect(undecided.fieldType == .string)
        #expect(undecided.merged(with: .numericDate([.dayFirst, .dash])) == .numericDate([.dayFirst, .slash, .dash]))
        #expect(undecided.merged(with: .numericDate([.dayFirst, .dash])).fieldType == .timestamp)
        #expect(
            InferredKind.numericDate([.monthFirst, .slash]).merged(with: .numericDate([.dayFirst, .slash])) == .string)
        #expect(undecided.merged(with: .timestamp) == undecided)
        #expect(undecided.merged(with: .integer) == .string)
    }

    @Test(arguments: [
        "13/13/2020", "1/2/25", "1/2/20255", "00/01/2020", "1/2-2020", "11/26/2026 25:00", "11/26/2026 junk",
        "Jan 32 2000", "Feb 29 2001", "Janu 1 2000", "Jan 1 2000 10:00 XYZ", "Tue 03 Jun", "June", "Mar 1 99",
        "Dec 2024 revision", "Market Street 12", "5'10\"", "1.2.3", "12-34-5678", "Tue, 03 Jun 2008 11:05:30 GMT ",
        "May 5st, 2021", "Jan 11st 2000", "1th of January 2000", "May 5th of 2021", "2000/13/01", "2000/1/2/3",
        "20000/01/01", "2000/01-01",
    ])
    func leavesOtherTextAsText(text: String) {
        #expect(Self.milliseconds(text, DateReading(order: .monthFirst)) == nil, "\(text)")
        #expect(InferredKind(of: .text(text))?.fieldType == .string, "\(text)")
    }

    @Test func readsDatesInJSONStringsAsInText() {
        #expect(InferredKind(of: .string("May 5th, 2021")) == .timestamp)
        #expect(InferredKind(of: .string("5 May 2021")) == .timestamp)
        #expect(InferredKind(of: .string("11/26/2026")) == .numericDate([.monthFirst, .slash]))
        #expect(InferredKind(of: .string("Mayfair Gardens")) == .string)
        #expect(InferredKind(of: .string("May the fourth")) == .string)
    }

    @Test func readsTimesWithoutAZoneInTheZoneGiven() throws {
        let paris = DateReading(zone: try TimeZoneChoice(parsing: "Europe/Paris"))
        // Summer time in June, winter time in January; a zone written wins.
        #expect(Self.milliseconds("2008-06-03 11:05:30", paris) == 1_212_483_930_000)
        #expect(Self.milliseconds("Jan 15 2026 09:00", paris) == 1_768_464_000_000)
        #expect(Self.milliseconds("Tue, 03 Jun 2008 11:05:30 GMT", paris) == 1_212_491_130_000)
        #expect(Self.milliseconds("2008-06-03T11:05:30Z", paris) == 1_212_491_130_000)
        let india = DateReading(order: .dayFirst, zone: try TimeZoneChoice(parsing: "+05:30"))
        #expect(Self.milliseconds("03/06/2008 11:05:30", india) == 1_212_471_330_000)
        #expect(
            Self.milliseconds("2008-06-03 11:05:30", DateReading(zone: try TimeZoneChoice(parsing: "UTC")))
                == 1_212_491_130_000)
    }

    @Test func refusesAnUnknownZoneOrFormat() {
        #expect(throws: CloudSeedError.self) { try TimeZoneChoice(parsing: "Europe/Pariss") }
        #expect(throws: CloudSeedError.self) { try TimeZoneChoice(parsing: "+25:00") }
        let zone = #expect(throws: CloudSeedError.self) { try TimeZoneChoice(parsing: "Mars/Olympus") }
        #expect(
            zone?.message
                == "the time zone 'Mars/Olympus' is not a time zone; use a name such as Europe/Paris or America/New_York, UTC, or an offset such as +02:00"
        )
        let format = #expect(throws: CloudSeedError.self) { try DateFormatPin(parsing: "published=yyyy/MM/dd") }
        #expect(
            format?.message
                == "the date format 'published=yyyy/MM/dd': use MM/dd/yyyy (month first) or dd/MM/yyyy (day first), with /, . or - between the numbers, for one field as [type.]field=FORMAT"
        )
    }

    @Test func readsDateFormatPins() throws {
        let pin = try DateFormatPin(parsing: "Book.published=dd.MM.yyyy")
        #expect(pin.recordType == "Book")
        #expect(pin.field == "published")
        #expect(pin.order == .dayFirst)
        #expect(pin.separator == ".")
        let global = try DateFormatPin(parsing: "M/d/yyyy")
        #expect(global.field == nil)
        #expect(global.order == .monthFirst)
    }
}
