import CloudSeedCore

/// One token of CKSL text.
package struct CKSLToken: Hashable, Sendable {
    package enum Kind: Hashable, Sendable {
        /// A keyword or a bare name: letters, digits and `_` (`RECORD`, `title`, `_x`, `1x`).
        case word
        /// A double-quoted name; ``CKSLToken/text`` holds it without the quotes.
        case quoted
        /// One of `( ) , ; < >`.
        case symbol
        /// A character CKSL has no use for.
        case invalid
        /// The end of the text; it sits just after the last token.
        case end
    }

    package var kind: Kind
    package var text: String
    /// Where the token starts.
    package var start: CKSLLocation
    /// Just after the token's last character.
    package var end: CKSLLocation

    /// Whether this is the word `keyword`, in any case (keywords are case-insensitive).
    package func isKeyword(_ keyword: String) -> Bool {
        kind == .word && text.uppercased() == keyword
    }

    /// Whether this is the symbol `symbol`.
    package func isSymbol(_ symbol: String) -> Bool {
        kind == .symbol && text == symbol
    }

    /// The token as an error message names what it found: `title`, `"test role"`, `"("`, `U+0007`,
    /// `end of file`.
    package var found: String {
        switch kind {
        case .word: text
        case .quoted, .symbol: "\"\(text)\""
        case .invalid:
            text.unicodeScalars.first.map { (0x21...0x7E).contains($0.value) ? "\"\(text)\"" : Self.codePoint($0) }
                ?? text
        case .end: "end of file"
        }
    }

    private static func codePoint(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}
