import CloudSeedCore
import Foundation

/// Tells a CSV file's first row of data from a header row: a column's name is a word or a few,
/// never a number, a date, a phone number, an e-mail address or a link, which data rows hold.
///
/// ```
/// name,phone,zip                              → a header
/// Burma SuperStar,(415) 387-2147,94118        → data: columns column1, column2, column3
/// ```
package enum HeaderGuess {
    /// Whether `cells`, the first row's, are data rather than column names.
    package static func isData(_ cells: [String]) -> Bool {
        cells.contains { cell in
            let text = cell.trimmingCharacters(in: .whitespaces)
            return isNumber(text) || isPhoneNumber(text) || Timestamp.parse(text) != nil
                || (text.contains("@") && text.contains(".")) || text.hasPrefix("http://")
                || text.hasPrefix("https://")
        }
    }

    private static func isNumber(_ text: String) -> Bool {
        text.utf8.contains { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
            && text.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || ".-+".utf8.contains($0) }
    }

    /// Seven digits or more, with only the marks phone numbers are written with: `(415) 387-2147`.
    private static func isPhoneNumber(_ text: String) -> Bool {
        let digits = text.utf8.filter { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }.count
        return digits >= 7
            && text.utf8.allSatisfy { byte in
                (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || " ()+-.".utf8.contains(byte)
            }
    }
}
