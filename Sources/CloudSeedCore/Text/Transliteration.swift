import Foundation

/// Turns any text into ASCII the same way every time (`Zoë Müller` → `Zoe Muller`).
///
/// ICU's `Any-Latin; Latin-ASCII` decides every form, through a table of accented letters that ICU
/// itself filled and a memory of the other runs it has transliterated: many times faster than ICU
/// on every string, and the same text (a test checks the two agree).
package enum Transliteration {
    private static let toASCII = ICUTransliterator("Any-Latin; Latin-ASCII")

    /// The ASCII form of `text`; characters with no ASCII form are left out.
    ///
    /// ASCII, pictographs and the letters of ``singleCharacterForms`` are mapped a character at a
    /// time; each run of other characters (`漢字`, `の`, `Москва`) goes to ICU with the character
    /// before and after it, as ICU looks that far (`Skagen漢字` → `Skagen han zi`), and is remembered.
    /// The text is read as its UTF-8 bytes, and a run found again by its bytes and its neighbours'
    /// (hashing it as a `String` normalises it first, which made transliterating slower).
    package static func ascii(_ text: String) -> String {
        var text = text
        if text.withUTF8(UTF8Validation.isASCII) { return text }
        guard let bytes = text.withUTF8(asciiBytes) else { return icuASCII(text) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// ``ascii(_:)``'s bytes for a text's UTF-8; `nil` if ICU changed a run's neighbours too.
    private static func asciiBytes(_ utf8: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        var result: [UInt8] = []
        result.reserveCapacity(utf8.count)
        var index = 0
        var previous: Unicode.Scalar?
        while index < utf8.count {
            if utf8[index] < 0x80 {
                // A run of ASCII is its own form, appended at once (most of a title's bytes).
                var end = index + 1
                while end < utf8.count && utf8[end] < 0x80 { end += 1 }
                result.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[index..<end]))
                previous = Unicode.Scalar(utf8[end - 1])
                index = end
                continue
            }
            let (scalar, length) = scalar(in: utf8, at: index)
            if let form = characterForm(scalar) {
                if form != dropped { result.append(form) }
                previous = scalar
                index += length
                continue
            }
            var end = index + length
            var last = scalar
            var after: Unicode.Scalar?
            while end < utf8.count {
                let (next, nextLength) = Self.scalar(in: utf8, at: end)
                if characterForm(next) != nil {
                    after = next
                    break
                }
                last = next
                end += nextLength
            }
            guard let form = runForm(UnsafeBufferPointer(rebasing: utf8[index..<end]), before: previous, after: after)
            else { return nil }
            result += form
            previous = last
            index = end
        }
        return result
    }

    /// The character whose UTF-8 (well formed, as a string's) starts at `index`, and its length in bytes.
    @inline(__always)
    private static func scalar(in utf8: UnsafeBufferPointer<UInt8>, at index: Int) -> (Unicode.Scalar, Int) {
        let lead = UInt32(utf8[index])
        func continuation(_ offset: Int) -> UInt32 { UInt32(utf8[index + offset] & 0x3F) }
        let (value, length): (UInt32, Int) =
            if lead < 0x80 { (lead, 1) } else if lead < 0xE0 {
                ((lead & 0x1F) << 6 | continuation(1), 2)
            } else if lead < 0xF0 { ((lead & 0x0F) << 12 | continuation(1) << 6 | continuation(2), 3) } else {
                ((lead & 0x07) << 18 | continuation(1) << 12 | continuation(2) << 6 | continuation(3), 4)
            }
        return (Unicode.Scalar(value) ?? "\u{FFFD}", length)
    }

    /// ``characterForm(_:)``'s answer for a character that has no form.
    private static let dropped: UInt8 = 0xFE

    /// The ASCII byte of a character that needs no context (ASCII itself, a table letter), or
    /// ``dropped`` for one left out (a pictograph, a mark); `nil` when it needs ICU.
    @inline(__always)
    package static func characterForm(_ scalar: Unicode.Scalar) -> UInt8? {
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

    /// ICU's form of a run between two characters of known form, remembered (up to 10,000 runs):
    /// titles repeat their words. `nil` if ICU changed the neighbours too.
    private static func runForm(_ run: UnsafeBufferPointer<UInt8>, before: Unicode.Scalar?, after: Unicode.Scalar?)
        -> [UInt8]?
    {
        // The run's bytes between its neighbours', each behind a byte that UTF-8 never holds,
        // written on the stack: the key is looked up far more often than it is kept.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: run.count + 10) { buffer in
            var count = 0
            func append(_ byte: UInt8) {
                buffer[count] = byte
                count += 1
            }
            if let before { UTF8.encode(before, into: append) }
            append(0xFF)
            for byte in run { append(byte) }
            append(0xFF)
            if let after { UTF8.encode(after, into: append) }
            return runForm(UnsafeBufferPointer(rebasing: buffer[..<count]), run: run, before: before, after: after)
        }
    }

    /// ``runForm(_:before:after:)`` of the run whose key (its bytes between its neighbours') is `key`.
    private static func runForm(
        _ key: UnsafeBufferPointer<UInt8>, run: UnsafeBufferPointer<UInt8>, before: Unicode.Scalar?,
        after: Unicode.Scalar?
    ) -> [UInt8]? {
        runFormsLock.lock()
        defer { runFormsLock.unlock() }
        if let form = runForms.value(for: key) { return form }
        let prefix = before.flatMap(contextForm) ?? ""
        let suffix = after.flatMap(contextForm) ?? ""
        let context =
            (before.map { String(Character($0)) } ?? "") + String(decoding: run, as: UTF8.self)
            + (after.map { String(Character($0)) } ?? "")
        let whole = icuASCII(context)
        guard whole.utf8.count >= prefix.utf8.count + suffix.utf8.count, whole.hasPrefix(prefix),
            whole.hasSuffix(suffix)
        else { return nil }
        let form = Array(whole.utf8.dropFirst(prefix.utf8.count).dropLast(suffix.utf8.count))
        if runForms.count >= 10_000 { runForms.removeAll() }
        runForms.insert(key, value: form)
        return form
    }

    /// The text a neighbouring character of known form becomes.
    private static func contextForm(_ scalar: Unicode.Scalar) -> String? {
        characterForm(scalar).map { $0 == dropped ? "" : String(UnicodeScalar($0)) }
    }

    private static let runFormsLock = NSLock()
    nonisolated(unsafe) private static var runForms = ByteKeyedValues<[UInt8]>()

    /// What ICU makes of `text`, with what is still not ASCII left out.
    package static func icuASCII(_ text: String) -> String {
        let latin = toASCII.apply(text)
        return String(String.UnicodeScalarView(latin.unicodeScalars.filter { $0.isASCII }))
    }

    /// Accented Latin letters (U+00A0–U+024F) that ICU maps to one ASCII character, or to nothing,
    /// whatever surrounds them. Letters that become several (`Æ`, `ß`) may depend on their
    /// neighbours, so they are left to ICU.
    package static let singleCharacterForms: [UInt32: Unicode.Scalar?] = {
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
    package static func isPictograph(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value >= 0x1F000 && scalar.value <= 0x1FAFF && scalar.properties.generalCategory == .otherSymbol
    }
}
