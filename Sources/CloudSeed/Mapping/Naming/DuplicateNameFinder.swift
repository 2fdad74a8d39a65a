import Foundation

/// A 96-bit fingerprint of a text, to tell a million texts apart without keeping them. Two
/// different texts share one with a chance of about n²/2⁹⁷ among n texts (6·10⁻¹⁸ for a million).
/// Fingerprints compare within one process only: the hash seeds are drawn per process.
///
/// Texts equal as strings (canonically equivalent) have equal fingerprints: the bytes hashed are
/// the text's in Unicode's composed form (NFC), which an ASCII text, as record names mostly are, is already.
struct Fingerprint: Comparable {
    var high: UInt64
    var low: UInt32

    init(_ text: String) {
        var composed = text
        if !composed.withUTF8(UTF8Validation.isASCII) { composed = text.precomposedStringWithCanonicalMapping }
        let (first, second) = composed.withUTF8 { ByteHash.wideHash(UnsafeRawBufferPointer($0)) }
        (high, low) = (first, UInt32(truncatingIfNeeded: second))
    }

    static func < (a: Fingerprint, b: Fingerprint) -> Bool { (a.high, a.low) < (b.high, b.low) }
}

/// The record names one naming rule would give a type's rows, kept as fingerprints with their row
/// numbers (16 bytes a row: the fingerprint's 12 bytes and the row's 4 pack without padding): enough
/// to find the rows that would share a name.
struct DuplicateNameFinder {
    private struct Mark {
        var fingerprint: Fingerprint
        var row: Int32
    }

    /// Marks spread over buckets by their fingerprint's first bits, so that no array of a million
    /// grows by doubling and each bucket sorts on its own. Few enough that the ends of the buckets
    /// stay in the processor's cache: with many more, every mark added missed it.
    private static let bucketBits = 8
    private var buckets: [[Mark]] = Array(repeating: [], count: 1 << bucketBits)

    /// Notes that row number `row` (from 0) would be named `name`.
    mutating func add(_ name: String, row: Int) {
        let fingerprint = Fingerprint(name)
        buckets[Int(fingerprint.high >> UInt64(64 - Self.bucketBits))].append(
            Mark(fingerprint: fingerprint, row: Int32(row)))
    }

    /// The rows that would get a name an earlier row gets: (earlier row, later row), by later row.
    mutating func duplicates() -> [(first: Int, second: Int)] {
        var pairs: [(first: Int, second: Int)] = []
        for index in buckets.indices where buckets[index].count > 1 {
            buckets[index].sort { ($0.fingerprint, $0.row) < ($1.fingerprint, $1.row) }
            let bucket = buckets[index]
            var groupStart = 0
            for offset in 1..<bucket.count {
                if bucket[offset].fingerprint == bucket[groupStart].fingerprint {
                    pairs.append((Int(bucket[groupStart].row), Int(bucket[offset].row)))
                } else {
                    groupStart = offset
                }
            }
        }
        return pairs.sorted { $0.second < $1.second }
    }

    /// The rows that get a name a row of `other` gets: (row here, row there), by row here. Both
    /// finders' marks must be sorted, as ``duplicates()`` leaves them.
    func rowsNamedAlike(in other: DuplicateNameFinder) -> [(row: Int, otherRow: Int)] {
        var pairs: [(row: Int, otherRow: Int)] = []
        for index in buckets.indices where !buckets[index].isEmpty && !other.buckets[index].isEmpty {
            let mine = buckets[index]
            let theirs = other.buckets[index]
            var next = 0
            for mark in mine {
                while next < theirs.count && theirs[next].fingerprint < mark.fingerprint { next += 1 }
                if next < theirs.count && theirs[next].fingerprint == mark.fingerprint {
                    pairs.append((Int(mark.row), Int(theirs[next].row)))
                }
            }
        }
        return pairs.sorted { $0.row < $1.row }
    }
}
