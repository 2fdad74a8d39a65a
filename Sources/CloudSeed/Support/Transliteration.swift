import Foundation

/// Turns any text into ASCII the same way every time (`Zoë Müller` → `Zoe Muller`).
enum Transliteration {
    private static let toASCII = StringTransform("Any-Latin; Latin-ASCII")

    /// The ASCII form of `text`; characters with no ASCII form are left out.
    static func ascii(_ text: String) -> String {
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text }
        let latin = text.applyingTransform(toASCII, reverse: false) ?? text
        return String(String.UnicodeScalarView(latin.unicodeScalars.filter { $0.isASCII }))
    }
}
