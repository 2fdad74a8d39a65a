/// Reads `true` and `false` in any case, as spreadsheets write them (`TRUE`).
package enum BooleanText {
    package static func value(_ text: String) -> Bool? {
        if CaseInsensitiveNames.matches(text, "true") { return true }
        if CaseInsensitiveNames.matches(text, "false") { return false }
        return nil
    }

    /// ``value(_:)`` of a text's UTF-8 bytes, such as a CSV cell's, compared where they are.
    ///
    /// A text with a character beyond ASCII is neither: no such character lowercases to a letter of
    /// `true` or `false`, nor is canonically equivalent to one (the few that lowercase or decompose
    /// to ASCII become `k`, `K`, `;` or `` ` ``), so ``value(_:)`` finds neither word in it either.
    /// Titles and notes that start with such a character were made strings and lowercased twice
    /// to learn it.
    package static func value(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Bool? {
        guard UTF8Validation.isASCII(bytes) else { return nil }
        func isLowercase(_ word: StaticString) -> Bool {
            word.utf8CodeUnitCount == bytes.count && bytes.indices.allSatisfy { bytes[$0] | 0x20 == word.utf8Start[$0] }
        }
        if isLowercase("true") { return true }
        if isLowercase("false") { return false }
        return nil
    }
}
