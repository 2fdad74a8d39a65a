import Foundation

/// Turns any text into ASCII the same way every time (`Zoë Müller` → `Zoe Muller`).
///
/// ICU's `Any-Latin; Latin-ASCII` decides every form, through a table of accented letters that ICU
/// itself filled and a memory of the other runs it has transliterated: many times faster than ICU
/// on every string, and the same text (a test checks the two agree).
enum Transliteration {
    private static let toASCII = ICUTransliterator("Any-Latin; Latin-ASCII")

    /// The ASCII form of `text`; characters with no ASCII form are left out.
    ///
    /// ASCII, pictographs and the letters of ``singleCharacterForms`` are mapped a character at a
    /// time; each run of other characters (`漢字`, `の`, `Москва`) goes to ICU with the character
    /// before and after it, as ICU looks that far (`Skagen漢字` → `Skagen han zi`), and is remembered.
    static func ascii(_ text: String) -> String {
        if text.utf8.withContiguousStorageIfAvailable(UTF8Validation.isASCII) ?? text.utf8.allSatisfy({ $0 < 0x80 }) { return text }
        let scalars = text.unicodeScalars
        var result: [UInt8] = []
        result.reserveCapacity(text.utf8.count)
        var index = scalars.startIndex
        var previous: Unicode.Scalar?
        while index < scalars.endIndex {
            let scalar = scalars[index]
            if let form = characterForm(scalar) {
                if form != dropped { result.append(form) }
                previous = scalar
                scalars.formIndex(after: &index)
                continue
            }
            var end = scalars.index(after: index)
            while end < scalars.endIndex, characterForm(scalars[end]) == nil { scalars.formIndex(after: &end) }
            let after = end < scalars.endIndex ? scalars[end] : nil
            guard let form = runForm(String(scalars[index..<end]), before: previous, after: after) else { return icuASCII(text) }
            result += form.utf8
            previous = scalars[scalars.index(before: end)]
            index = end
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// ``characterForm(_:)``'s answer for a character that has no form.
    private static let dropped: UInt8 = 0xFE

    /// The ASCII byte of a character that needs no context (ASCII itself, a table letter), or
    /// ``dropped`` for one left out (a pictograph, a mark); `nil` when it needs ICU.
    @inline(__always)
    static func characterForm(_ scalar: Unicode.Scalar) -> UInt8? {
        if scalar.isASCII { return UInt8(scalar.value) }
        if scalar.value < UInt32(formBytes.count) {
            let form = formBytes[Int(scalar.value)]
            return form == unknown ? nil : form
        }
        return isPictograph(scalar) ? dropped : nil
    }

    /// ``singleCharacterForms`` by code point: the ASCII byte, ``dropped``, or ``unknown``.
    private static let formBytes: [UInt8] = {
        var bytes = [UInt8](repeating: unknown, count: 0x250)
        for (value, form) in singleCharacterForms { bytes[Int(value)] = form.map { UInt8($0.value) } ?? dropped }
        return bytes
    }()
    private static let unknown: UInt8 = 0xFF

    private struct RunKey: Hashable {
        var run: String
        var before: Unicode.Scalar?
        var after: Unicode.Scalar?
    }

    /// ICU's form of a run between two characters of known form, remembered (up to 10,000 runs):
    /// titles repeat their words. `nil` if ICU changed the neighbours too.
    private static func runForm(_ run: String, before: Unicode.Scalar?, after: Unicode.Scalar?) -> String? {
        let key = RunKey(run: run, before: before, after: after)
        runFormsLock.lock()
        defer { runFormsLock.unlock() }
        if let form = runForms[key] { return form }
        let prefix = before.flatMap(contextForm) ?? ""
        let suffix = after.flatMap(contextForm) ?? ""
        let context = (before.map { String(Character($0)) } ?? "") + run + (after.map { String(Character($0)) } ?? "")
        let whole = icuASCII(context)
        guard whole.utf8.count >= prefix.utf8.count + suffix.utf8.count, whole.hasPrefix(prefix), whole.hasSuffix(suffix) else { return nil }
        let form = String(whole.dropFirst(prefix.count).dropLast(suffix.count))
        if runForms.count >= 10_000 { runForms.removeAll(keepingCapacity: true) }
        runForms[key] = form
        return form
    }

    /// The text a neighbouring character of known form becomes.
    private static func contextForm(_ scalar: Unicode.Scalar) -> String? {
        characterForm(scalar).map { $0 == dropped ? "" : String(UnicodeScalar($0)) }
    }

    private static let runFormsLock = NSLock()
    nonisolated(unsafe) private static var runForms: [RunKey: String] = [:]

    /// What ICU makes of `text`, with what is still not ASCII left out.
    static func icuASCII(_ text: String) -> String {
        let latin = toASCII.apply(text)
        return String(String.UnicodeScalarView(latin.unicodeScalars.filter { $0.isASCII }))
    }

    /// Accented Latin letters (U+00A0–U+024F) that ICU maps to one ASCII character, or to nothing,
    /// whatever surrounds them. Letters that become several (`Æ`, `ß`) may depend on their
    /// neighbours, so they are left to ICU.
    static let singleCharacterForms: [UInt32: Unicode.Scalar?] = {
        var forms: [UInt32: Unicode.Scalar?] = [:]
        for value in UInt32(0xA0)...0x24F {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let form = icuASCII(String(Character(scalar))).unicodeScalars
            if form.isEmpty {
                forms[value] = .some(nil)
            } else if form.count == 1, let only = form.first, only.properties.isAlphabetic {
                forms[value] = only
            }
        }
        return forms
    }()

    /// Emoji and other pictographs beyond the Basic Multilingual Plane: ICU has no Latin form for
    /// them, so they are left out, as ICU's output filtered to ASCII leaves them out.
    static func isPictograph(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value >= 0x1F000 && scalar.value <= 0x1FAFF && scalar.properties.generalCategory == .otherSymbol
    }
}
