/// How a column's decimals are written, to tell whether storing them as numbers loses what was
/// written: `1.10` and `1.1` are one DOUBLE to a store but two releases to a person.
///
/// Rule: a column of untyped text (a CSV column) whose reals include two spellings of one number
/// that differ only by zeros at the end of the fraction (`1.10` and `1.1`, `2.0` and `2.00`) stays
/// STRING. Money written the same way throughout (`12.50`, `3.00`) has one spelling per number and
/// still becomes DOUBLE. A column of more than ``limit`` different numbers is taken as
/// measurements, not versions: it is not checked, and nothing is kept of it.
///
/// ```
/// version: 1.1, 1.2, 2.0, 1.10   → STRING (kept as text: 1.10 and 1.1 differ)
/// price:   12.50, 3.00, 7.25     → DOUBLE
/// ```
struct DecimalSpellings {
    /// How many different numbers a column may have and still be checked.
    static let limit = 10_000

    /// The spellings of one number: its text without the zeros at the end of its fraction (nor a
    /// point left alone), and the shortest and longest length it was written with.
    private struct Spelling {
        var bare: String
        var shortest: Int
        var longest: Int
    }

    /// The spellings seen, by the hash of the bare text.
    private var spellings: [UInt64: Spelling] = [:]
    /// Whether the column had more than ``limit`` different numbers.
    private(set) var overflowing = false
    /// Whether any real was noted.
    private(set) var hasReals = false

    /// Whether a real's text still changes what is learnt.
    var isChecking: Bool { !overflowing }

    /// Takes in a real's text (`-?digits.digits`; one with an exponent is not a spelling this checks).
    mutating func note(_ bytes: UnsafeBufferPointer<UInt8>) {
        hasReals = true
        guard !overflowing, let point = bytes.firstIndex(of: UInt8(ascii: ".")),
            !bytes.contains(where: { $0 | 0x20 == UInt8(ascii: "e") })
        else { return }
        var end = bytes.count
        while end > point + 1, bytes[end - 1] == UInt8(ascii: "0") { end -= 1 }
        if end == point + 1 { end = point }
        let bare = UnsafeBufferPointer(rebasing: bytes[..<end])
        let key = ByteHash.hash(UnsafeRawBufferPointer(bare))
        if var known = spellings[key] {
            guard bytes.count < known.shortest || bytes.count > known.longest else { return }
            known.shortest = min(known.shortest, bytes.count)
            known.longest = max(known.longest, bytes.count)
            spellings[key] = known
            return
        }
        spellings[key] = Spelling(
            bare: String(decoding: bare, as: UTF8.self), shortest: bytes.count, longest: bytes.count)
        if spellings.count > Self.limit { overflow() }
    }

    /// Takes in what `other` learnt of other values of the same column.
    mutating func merge(_ other: DecimalSpellings) {
        hasReals = hasReals || other.hasReals
        guard !overflowing else { return }
        guard !other.overflowing else { return overflow() }
        for (key, spelling) in other.spellings {
            if var known = spellings[key] {
                known.shortest = min(known.shortest, spelling.shortest)
                known.longest = max(known.longest, spelling.longest)
                spellings[key] = known
            } else {
                spellings[key] = spelling
            }
        }
        if spellings.count > Self.limit { overflow() }
    }

    private mutating func overflow() {
        overflowing = true
        spellings = [:]
    }

    /// Two spellings of one number the column holds, the longer first (`1.10`, `1.1`): the first
    /// such number in byte order, so that the answer does not depend on the order of the values;
    /// `nil` where there are none, or the column was not checked.
    var differing: (longer: String, shorter: String)? {
        let found = spellings.values.filter { $0.shortest != $0.longest }.min {
            $0.bare.utf8.lexicographicallyPrecedes($1.bare.utf8)
        }
        guard let found else { return nil }
        func written(_ length: Int) -> String {
            guard length > found.bare.utf8.count else { return found.bare }
            let point = found.bare.contains(".") ? "" : "."
            return found.bare + point + String(repeating: "0", count: length - found.bare.utf8.count - point.count)
        }
        return (written(found.longest), written(found.shortest))
    }
}

/// Field names that say their values are versions: `version`, `appVersion`, `schema_version`.
enum VersionNames {
    static func isVersion(_ name: String) -> Bool {
        CaseInsensitiveNames.matches(name, "version") || name.hasSuffix("Version")
            || name.lowercased().hasSuffix("_version")
    }
}
