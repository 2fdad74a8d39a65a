/// Builds JSON text by hand, so that key order and number forms are exactly as CloudKit writes them.
@usableFromInline package struct JSONText {
    package private(set) var text = ""

    /// A JSON string literal for `value`, escaping what RFC 8259 requires.
    package static func quoted(_ value: String) -> String {
        if !value.utf8.contains(where: needsEscape) { return "\"" + value + "\"" }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(value.utf8.count + 8)
        appendQuoted(value.utf8, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the JSON string literal for the UTF-8 `value` to `bytes`.
    @inlinable package static func appendQuoted(_ value: UnsafeBufferPointer<UInt8>, to bytes: inout [UInt8]) {
        if !value.contains(where: needsEscape) {
            bytes.append(UInt8(ascii: "\""))
            bytes.append(contentsOf: value)
            bytes.append(UInt8(ascii: "\""))
        } else {
            appendEscaping(value, to: &bytes)
        }
    }

    /// Appends the JSON string literal for the UTF-8 `value` (a string's `utf8`, a column's bytes)
    /// to `bytes`.
    @inlinable package static func appendQuoted(_ value: some Collection<UInt8>, to bytes: inout [UInt8]) {
        let appended: Void? = value.withContiguousStorageIfAvailable { appendQuoted($0, to: &bytes) }
        if appended == nil { appendEscaping(value, to: &bytes) }
    }

    /// Appends `value` in quotes, escaping byte by byte.
    @inlinable static func appendEscaping(_ value: some Sequence<UInt8>, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        for byte in value {
            guard needsEscape(byte) else {
                bytes.append(byte)
                continue
            }
            bytes.append(UInt8(ascii: "\\"))
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(byte)
            case UInt8(ascii: "\n"): bytes.append(UInt8(ascii: "n"))
            case UInt8(ascii: "\r"): bytes.append(UInt8(ascii: "r"))
            case UInt8(ascii: "\t"): bytes.append(UInt8(ascii: "t"))
            default:
                bytes.append(UInt8(ascii: "u"))
                bytes.append(UInt8(ascii: "0"))
                bytes.append(UInt8(ascii: "0"))
                bytes.append(hexDigit(byte >> 4))
                bytes.append(hexDigit(byte & 0xF))
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// The lowercase hexadecimal digit of `value` (0–15).
    @inlinable static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }

    /// Whether a byte of UTF-8 must be escaped inside a JSON string: a quote, a backslash, a control character.
    @inlinable static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    /// A JSON number for a finite double that reads back as a double: `1.0`, `-0.5`, `1e-300`.
    package static func number(_ value: Double) -> String {
        let text = value.description
        if text.utf8.contains(where: { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") }) { return text }
        return text + ".0"
    }

    /// Appends ``number(_:)``'s text to `bytes`. A number of at most six decimals and fifteen
    /// digits, 0.0001 or more from zero (a latitude, a price), is written from its digits, which
    /// are the ones `description` writes: the shortest that read back as the same double, and no
    /// other number of at most fifteen digits reads back as it. Any other goes through `description`.
    package static func appendNumber(_ value: Double, to bytes: inout [UInt8]) {
        let millionths = (value * 1_000_000).rounded()
        guard millionths.magnitude >= 100, millionths.magnitude < 1e15, millionths / 1_000_000 == value else {
            bytes += number(value).utf8
            return
        }
        appendMillionths(Int64(millionths), to: &bytes)
    }

    /// Writes `millionths` / 1,000,000 as a decimal without trailing zeros after its point (`-39.24`, `12.0`).
    private static func appendMillionths(_ millionths: Int64, to bytes: inout [UInt8]) {
        if millionths < 0 { bytes.append(UInt8(ascii: "-")) }
        let whole = millionths.magnitude / 1_000_000
        var fraction = millionths.magnitude % 1_000_000
        var fractionDigits = 6
        while fractionDigits > 1, fraction % 10 == 0 {
            fraction /= 10
            fractionDigits -= 1
        }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 24) { digits in
            var end = digits.count
            for _ in 0..<fractionDigits {
                end -= 1
                digits[end] = UInt8(ascii: "0") + UInt8(fraction % 10)
                fraction /= 10
            }
            end -= 1
            digits[end] = UInt8(ascii: ".")
            var rest = whole
            repeat {
                end -= 1
                digits[end] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            } while rest > 0
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[end...]))
        }
    }

    /// `{"key": value, ...}` from already-encoded members, in the order given.
    package static func object(_ members: [(String, String)]) -> String {
        var result = "{"
        result.reserveCapacity(members.reduce(2) { $0 + $1.0.utf8.count + $1.1.utf8.count + 4 })
        for (offset, member) in members.enumerated() {
            if offset > 0 { result += "," }
            result += quoted(member.0)
            result += ":"
            result += member.1
        }
        return result + "}"
    }

    /// `[a, b, ...]` from already-encoded elements.
    package static func array(_ elements: [String]) -> String {
        "[" + elements.joined(separator: ",") + "]"
    }

    /// A JSON array of `strings`, each quoted: `["Mei Chen","Rodin"]`.
    package static func array(quoting strings: [String]) -> String {
        var bytes: [UInt8] = [UInt8(ascii: "[")]
        for (offset, string) in strings.enumerated() {
            if offset > 0 { bytes.append(UInt8(ascii: ",")) }
            appendQuoted(string.utf8, to: &bytes)
        }
        bytes.append(UInt8(ascii: "]"))
        return String(decoding: bytes, as: UTF8.self)
    }
}
