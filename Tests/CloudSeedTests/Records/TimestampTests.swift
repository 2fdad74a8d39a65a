import Testing

@testable import CloudSeed
@testable import CloudSeedCore
@testable import CloudSeedReaders
@testable import CloudSeedSchema
@testable import CloudSeedStore

@Suite struct TimestampTests {
    @Test(arguments: [
        ("1970-01-01T00:00:00.000Z", Int64(0)),
        ("2019-10-28T00:00:00.000Z", Int64(1_572_220_800_000)),
        ("1969-12-31T23:59:59.999Z", Int64(-1)),
        ("1900-01-01T00:00:00.000Z", Int64(-2_208_988_800_000)),
        ("0001-01-01T00:00:00.000Z", Timestamp.range.lowerBound),
        ("9999-12-31T23:59:59.999Z", Timestamp.range.upperBound),
        ("2000-02-29T12:34:56.789Z", Int64(951_827_696_789)),
    ])
    func formatsAndParsesBack(text: String, milliseconds: Int64) {
        #expect(Timestamp.format(milliseconds) == text)
        #expect(Timestamp.parse(text) == milliseconds)
    }

    @Test(arguments: [
        ("2019-10-28", Int64(1_572_220_800_000)),
        ("2019-10-28T10:00", Int64(1_572_256_800_000)),
        ("2019-10-28 10:00:00", Int64(1_572_256_800_000)),
        ("2019-10-28T10:00:00+02:00", Int64(1_572_249_600_000)),
        ("2019-10-28T10:00:00-0130", Int64(1_572_262_200_000)),
        ("2019-10-28T10:00:00.5Z", Int64(1_572_256_800_500)),
        ("2019-10-28T10:00:00.123456Z", Int64(1_572_256_800_123)),
    ])
    func readsTheISOForms(text: String, milliseconds: Int64) {
        #expect(Timestamp.parse(text) == milliseconds)
    }

    @Test(arguments: [
        "2019-02-29", "2019-13-01", "2019-10-28T24:00", "19-10-28", "2019-10-28T10:00Zjunk", "2019/10/28", "0000-01-01",
    ])
    func refusesWhatIsNotADate(text: String) {
        #expect(Timestamp.parse(text) == nil)
    }

    @Test func formatsToTheSecondAsCloudKitSignsRequests() {
        #expect(Timestamp.formatSeconds(1_572_256_805_999) == "2019-10-28T10:00:05Z")
        #expect(Timestamp.formatSeconds(-1) == "1969-12-31T23:59:59Z")
        #expect(Timestamp.formatSeconds(Timestamp.range.upperBound + 1) == nil)
    }

    @Test func refusesTimesOutsideFourDigitYears() {
        #expect(Timestamp.format(Timestamp.range.upperBound + 1) == nil)
        #expect(Timestamp.format(Timestamp.range.lowerBound - 1) == nil)
    }
}
