import Testing

@testable import CloudSeed
@testable import CloudSeedCore
@testable import CloudSeedReaders
@testable import CloudSeedSchema
@testable import CloudSeedStore

/// Whatever a CSV cell or a JSON string holds, the kind its column's survey finds converts: a
/// value surveyed as a date, a date in numbers, a decimal or a list is typed as one, never refused
/// at the write. Checked over every prefix and every one-byte change of values of each new form.
@Suite struct WrittenValueKindsTests {
    static let cells = [
        "Tue, 03 Jun 2008 11:05:30 GMT", "3 Jun 2008 11:05 -0700", "January 1, 2000 10:30 PM", "Sept 9 1999 08:07:06.5",
        "11/26/2026 10:30", "26.11.2026", "01-02-2025 23:59:59.999", #"["oil", "portrait"]"#, #"[1, 2.5, null]"#,
        #"["a\"b","\u00e9\ud83d\udd25"]"#, "2008-06-03 11:05:30+02:00", "1.10",
        "May 5th, 2021", "1st of January 2000 10:00", "900.00", "2026/11/26 10:30:05",
    ]

    /// The cells, their prefixes, and each with one byte replaced by one of a few telling bytes.
    static var variants: [[UInt8]] {
        var variants: [[UInt8]] = []
        for cell in cells {
            let bytes = Array(cell.utf8)
            for end in 0...bytes.count { variants.append(Array(bytes[..<end])) }
            for index in bytes.indices {
                for replacement in [
                    UInt8(ascii: "0"), UInt8(ascii: "9"), UInt8(ascii: " "), UInt8(ascii: "\""),
                    UInt8(ascii: "]"), UInt8(ascii: ","), UInt8(ascii: "\\"), 0x00, 0xFF,
                ] {
                    var changed = bytes
                    changed[index] = replacement
                    variants.append(changed)
                }
            }
        }
        return variants
    }

    @Test func everyKindTheSurveyFindsConverts() {
        let converter = ValueConverter(loadAsset: { _, _ in throw CancellationError() }, recordName: { $0 })
        let position = SourcePosition(file: "cells.csv")
        var kinds: [String: Int] = [:]
        for bytes in Self.variants {
            guard let text = String(validating: bytes, as: UTF8.self), !text.isEmpty else { continue }
            for value in [PlainValue.text(text), .string(text)] {
                check(value, text: text, converter: converter, position: position, kinds: &kinds)
            }
        }
        // The variants hold some of every kind.
        #expect(
            kinds.keys.sorted() == [
                "DOUBLE", "DOUBLE_LIST", "INT64", "INT64_LIST", "STRING", "STRING_LIST", "TIMESTAMP", "undecided",
            ])
    }

    /// Converts `value` to the field type its kind gives, counting the kinds met.
    private func check(
        _ value: PlainValue, text: String, converter: ValueConverter, position: SourcePosition,
        kinds: inout [String: Int]
    ) {
        let kind = InferredKind(of: value)!
        var reading: DateReading?
        if case .numericDate(let forms) = kind {
            guard let order = forms.order else {
                // Both orders read it: each converts.
                for order in [DateOrder.monthFirst, .dayFirst] {
                    #expect(throws: Never.self, "\(text)") {
                        try converter.convert(value, to: .timestamp, reading: DateReading(order: order), at: position)
                    }
                }
                kinds["undecided", default: 0] += 1
                return
            }
            reading = DateReading(order: order)
        }
        kinds[kind.fieldType.wireName, default: 0] += 1
        #expect(throws: Never.self, "\(text)") {
            try converter.convert(value, to: kind.fieldType, reading: reading, at: position)
        }
    }
}
