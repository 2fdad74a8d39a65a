import Testing

@testable import CloudSeed
@testable import CloudSeedCore
@testable import CloudSeedReaders
@testable import CloudSeedSchema
@testable import CloudSeedStore

@Suite struct TypeInferenceTests {
    @Test(arguments: [
        ("12", FieldType.int64), ("-5", .int64), ("0", .int64), ("1.5", .double), ("-0.25", .double), ("1e5", .double),
        ("true", .int64), ("FALSE", .int64), ("2019-10-28", .timestamp), ("2019-10-28T10:00:00Z", .timestamp),
        ("007", .string), ("1,000", .string), ("+1 555 0100", .string), ("1.2.3", .string), ("00.5", .string),
        (".5", .string), ("9223372036854775808", .string), ("abc", .string), ("yes", .string),
        // Integers' and reals' edges: 64 bits either way, a sign alone, an exponent past Double's range.
        ("9223372036854775807", .int64), ("-9223372036854775808", .int64), ("-9223372036854775809", .string),
        ("-0", .int64),
        ("-", .string), ("-05", .string), ("1e400", .string), ("1.5E-400", .double),
    ])
    func classifiesCSVText(text: String, type: FieldType) {
        #expect(InferredKind(of: .text(text))?.fieldType == type)
    }

    @Test func mergesOverAllValues() {
        func merged(_ values: [PlainValue]) -> FieldType? {
            values.compactMap(InferredKind.init(of:)).reduce(nil as InferredKind?) { result, kind in
                result.map { $0.merged(with: kind) } ?? kind
            }?.fieldType
        }
        #expect(merged([.text("1"), .text("2")]) == .int64)
        #expect(merged([.text("1"), .text("2.5")]) == .double)
        #expect(merged([.text("true"), .text("1")]) == .int64)
        #expect(merged([.text("1"), .text("abc")]) == .string)
        #expect(merged([.text("2019-10-28"), .text("12")]) == .string)
        #expect(merged([.text(""), .text("12")]) == .int64)
        #expect(merged([.array([.integer(1)]), .array([.real(2.5)])]) == .list(.double))
        #expect(merged([.array([])]) == .list(.string))
        #expect(merged([.dictionary([PlainEntry("lat", .real(1)), PlainEntry("lng", .real(2))])]) == .location)
    }

    @Test func tellsARealByItsDigitsWhereItIsSurelyFinite() {
        let nines = { (count: Int) -> String in String(repeating: "9", count: count) + ".5" }
        // Past 308 digits before the point a decimal is infinite to Double, so it is text.
        #expect(InferredKind(of: .text(nines(400)))?.fieldType == .string)
        #expect(InferredKind(of: .text(nines(300)))?.fieldType == .double)
        #expect(InferredKind(of: .text("-" + nines(300)))?.fieldType == .double)
        #expect(InferredKind(of: .text(nines(301)))?.fieldType == .double)
        #expect(InferredKind(of: .text(nines(308)))?.fieldType == .double)
    }

    @Test func readsIntegersDigitByDigit() {
        #expect(NumberText.integer("9223372036854775807") == Int64.max)
        #expect(NumberText.integer("-9223372036854775808") == Int64.min)
        #expect(NumberText.integer("9223372036854775808") == nil)
        #expect(NumberText.integer("-0") == 0)
        #expect(NumberText.integer("1200") == 1200)
        #expect(NumberText.integer("-37") == -37)
        #expect(NumberText.integer("") == nil)
        #expect(NumberText.integer("12a") == nil)
        #expect(NumberText.integer("١٢") == nil)  // Arabic-Indic digits are not digits here
    }

    @Test func typedStringsBecomeDatesAndDecimalsButNotIntegers() {
        #expect(InferredKind(of: .string("115"))?.fieldType == .string)
        #expect(InferredKind(of: .string("02134"))?.fieldType == .string)
        // A decimal in a string is a number, as Django writes a DecimalField.
        #expect(InferredKind(of: .string("900.00"))?.fieldType == .double)
        #expect(InferredKind(of: .string("900"))?.merged(with: InferredKind(of: .string("4.99"))!).fieldType == .double)
        #expect(InferredKind(of: .string("1.2.3"))?.fieldType == .string)
        #expect(InferredKind(of: .string("2019-10-28T00:00:00Z"))?.fieldType == .timestamp)
        #expect(InferredKind(of: .null) == nil)
    }
}
