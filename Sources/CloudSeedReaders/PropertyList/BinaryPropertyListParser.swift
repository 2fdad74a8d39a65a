package import CloudSeedCore
import Foundation

/// Reads the objects of a binary property list (`bplist00`) for ``BinaryPropertyListCursor``, checking every offset, count and
/// reference against the file so that a damaged or hostile file fails cleanly: out-of-range
/// offsets, cycles, object counts larger than the file and nesting beyond ``maximumDepth`` are errors.
package struct BinaryPropertyListParser {
    package static let maximumDepth = 512
    /// Seconds from 1970-01-01 to 2001-01-01, the epoch of binary plist dates.
    package static let referenceDateOffset = 978_307_200.0

    private let bytes: [UInt8]
    package let file: String
    /// Where the file starts: positions are made from it.
    private let origin: SourcePosition
    private var offsetSize = 0
    package private(set) var referenceSize = 0
    package private(set) var objectCount = 0
    private var offsetTableStart = 0
    /// The containers being read around the current object, outermost first, to refuse cycles:
    /// a short stack, searched faster than a set is hashed.
    package var visiting: [Int] = []
    /// How many values may still be built: shared objects referenced many times cannot blow up memory.
    private var budget = 0
    /// Dictionary keys read so far, by object: a file written by `plistlib` or Foundation keeps
    /// each key once, and every record's dictionary refers to it.
    private var keyTexts: [Int: String] = [:]
    /// The keys of the last few dictionaries with distinct key objects read at each depth, and
    /// where their key references start: records mostly share one of a few sets of keys (those
    /// with a `notes` key and those without), read in any order.
    private var recentKeys: [[(content: Int, keys: [String])]] = []
    /// How many sets of keys ``recentKeys`` keeps at each depth.
    private static let recentKeySets = 4
    /// What the last few records' sets of keys tell (``recordKeys(_:)``).
    private var recentRecordKeys: [RecordKeys] = []

    package init(bytes: [UInt8], file: String) {
        self.bytes = bytes
        self.file = file
        origin = SourcePosition(file: file)
    }

    /// `path` is worked out only here, when something is wrong: values read as plain values carry no path.
    package func error(
        _ message: String, _ path: @autoclosure () -> String = "", code: CloudSeedError.Code = .malformedSource
    )
        -> CloudSeedError
    {
        CloudSeedError(code, "damaged binary property list: \(message)", at: position(path()))
    }

    /// Where the value at `path` is (the top level when `path` is empty).
    package func position(_ path: String) -> SourcePosition {
        origin.at(keyPath: path.isEmpty ? "top level" : path)
    }

    /// Checks the header and trailer; returns the number of the top object.
    package mutating func topObject() throws -> Int {
        guard bytes.count >= 40, bytes.starts(with: Array("bplist0".utf8)) else {
            throw error("the file is too short or lacks the bplist00 header")
        }
        let trailer = bytes.count - 32
        offsetSize = Int(bytes[trailer + 6])
        referenceSize = Int(bytes[trailer + 7])
        guard (1...8).contains(offsetSize), (1...8).contains(referenceSize) else {
            throw error("invalid trailer sizes")
        }
        let count = readUInt(at: trailer + 8, size: 8)
        let top = readUInt(at: trailer + 16, size: 8)
        let table = readUInt(at: trailer + 24, size: 8)
        guard count > 0, count <= UInt64(bytes.count), top < count, table >= 8,
            table <= UInt64(trailer), UInt64(trailer) - table >= count * UInt64(offsetSize)
        else { throw error("the trailer's object count or offsets point outside the file") }
        objectCount = Int(count)
        offsetTableStart = Int(table)
        budget = max(1_000_000, 16 * objectCount)
        return Int(top)
    }

    @inline(__always)
    private func readUInt(at offset: Int, size: Int) -> UInt64 {
        var value: UInt64 = 0
        for index in offset..<offset + size { value = value << 8 | UInt64(bytes[index]) }
        return value
    }

    @inline(__always)
    package func offset(of object: Int, path: @autoclosure () -> String) throws -> Int {
        let entry = offsetTableStart + object * offsetSize
        let offset = readUInt(at: entry, size: offsetSize)
        guard offset >= 8, offset < UInt64(offsetTableStart) else {
            throw error("object \(object) lies outside the file", path())
        }
        return Int(offset)
    }

    /// Reads a length that follows a marker whose low nibble is 0xF; returns it and where the content starts.
    package func length(marker: UInt8, at offset: Int, path: @autoclosure () -> String) throws -> (Int, Int) {
        let nibble = Int(marker & 0x0F)
        guard nibble == 0x0F else { return (nibble, offset + 1) }
        guard offset + 1 < offsetTableStart else { throw error("a length lies outside the file", path()) }
        let intMarker = bytes[offset + 1]
        guard intMarker >> 4 == 0x1 else { throw error("a length is not an integer", path()) }
        let size = 1 << Int(intMarker & 0x0F)
        guard size <= 8, offset + 2 + size <= offsetTableStart else {
            throw error("a length lies outside the file", path())
        }
        let value = readUInt(at: offset + 2, size: size)
        guard value <= UInt64(bytes.count) else { throw error("a length of \(value) is larger than the file", path()) }
        return (Int(value), offset + 2 + size)
    }

    @inline(__always)
    package func checkRange(_ start: Int, _ count: Int, path: @autoclosure () -> String) throws {
        guard count >= 0, start + count <= offsetTableStart else {
            throw error("an object's content runs past the end of the file", path())
        }
    }

    @inline(__always)
    package func reference(at offset: Int) -> Int {
        Int(clamping: readUInt(at: offset, size: referenceSize))
    }

    /// The marker byte of object `index` and where the object starts, after the checks every
    /// object passes: a known object, not too deep, not one of the containers around it (unless
    /// `checkingCycles` is false: the caller checks that of containers itself).
    @inline(__always)
    package func header(of index: Int, path: @autoclosure () -> String, depth: Int, checkingCycles: Bool = true) throws
        -> (
            marker: UInt8, start: Int
        )
    {
        guard index < objectCount else {
            throw error("a reference to object \(index), beyond the \(objectCount) objects", path())
        }
        guard depth <= Self.maximumDepth else {
            throw error("nesting deeper than \(Self.maximumDepth) levels", path(), code: .limitExceeded)
        }
        guard !checkingCycles || !visiting.contains(index) else { throw cycle(index, path()) }
        let start = try offset(of: index, path: path())
        return (bytes[start], start)
    }

    /// Whether `marker` starts an array, a set or a dictionary.
    package static func isContainer(_ marker: UInt8) -> Bool {
        let kind = marker >> 4
        return kind == 0xA || kind == 0xC || kind == 0xD
    }

    /// The error of a container that contains itself.
    private func cycle(_ index: Int, _ path: String) -> CloudSeedError {
        error("object \(index) contains itself (a cycle)", path)
    }

    /// The keys of the dictionary whose references start at `content`, checked: strings, each once,
    /// and not an NSKeyedArchiver archive.
    package mutating func dictionaryKeys(count: Int, content: Int, path: @autoclosure () -> String, depth: Int) throws
        -> [String]
    {
        let width = count * referenceSize
        if depth < recentKeys.count,
            let last = recentKeys[depth].first(where: {
                $0.keys.count == count
                    && bytes[$0.content..<$0.content + width].elementsEqual(bytes[content..<content + width])
            })
        {
            // The same key objects as a dictionary before at this depth (the records of a file
            // written by `plistlib` or Foundation): already read and checked; the checks that
            // depend on where the dictionary is, again.
            guard depth + 1 <= Self.maximumDepth else {
                throw error("nesting deeper than \(Self.maximumDepth) levels", path(), code: .limitExceeded)
            }
            try spend(count, at: path())
            return last.keys
        }
        var keys = DistinctKeys()
        var result: [String] = []
        result.reserveCapacity(count)
        for item in 0..<count {
            let key = try keyText(reference(at: content + item * referenceSize), path: path(), depth: depth + 1)
            guard keys.insert(key) else { throw error("the key \"\(key)\" twice in one dictionary", path()) }
            result.append(key)
        }
        if keys.contains("$archiver"), keys.contains("$objects") {
            throw CloudSeedError(
                .malformedSource,
                "this binary property list is an NSKeyedArchiver archive, not plain data; export the objects as a plain property list first",
                at: position(path()))
        }
        if depth >= recentKeys.count { recentKeys += Array(repeating: [], count: depth + 1 - recentKeys.count) }
        if recentKeys[depth].count >= Self.recentKeySets { recentKeys[depth].removeFirst() }
        recentKeys[depth].append((content, result))
        return result
    }

    /// The text of the string object `index`, a dictionary's key, read once and then remembered;
    /// it counts against the budget each time, as a value built anew would.
    private mutating func keyText(_ index: Int, path: String, depth: Int) throws -> String {
        if let known = keyTexts[index] {
            // The checks ``header(of:path:depth:)`` makes that can differ from the first time.
            guard depth <= Self.maximumDepth else {
                throw error("nesting deeper than \(Self.maximumDepth) levels", path, code: .limitExceeded)
            }
            try spend(at: path)
            return known
        }
        guard case .scalar(.string(let key), _) = try object(index, path: path, depth: depth) else {
            throw error("a dictionary key that is not a string", path)
        }
        if keyTexts.count < 4096 { keyTexts[index] = key }
        return key
    }

    /// Builds object `index` and everything in it.
    package mutating func object(_ index: Int, path: String, depth: Int) throws -> DocumentNode {
        let (marker, start) = try header(of: index, path: path, depth: depth)
        visiting.append(index)
        defer { visiting.removeLast() }
        try spend(at: path)
        let position = self.position(path)
        switch marker >> 4 {
        case 0xA, 0xC:
            let (count, content) = try length(marker: marker, at: start, path: path)
            try checkRange(content, count * referenceSize, path: path)
            var items: [DocumentNode] = []
            items.reserveCapacity(min(count, 4096))
            for item in 0..<count {
                items.append(
                    try object(
                        reference(at: content + item * referenceSize), path: Self.path(path, item), depth: depth + 1))
            }
            return .array(items, position)
        case 0xD:
            let (count, content) = try length(marker: marker, at: start, path: path)
            try checkRange(content, 2 * count * referenceSize, path: path)
            var members: [(key: String, node: DocumentNode)] = []
            for (item, key) in try dictionaryKeys(count: count, content: content, path: path, depth: depth).enumerated()
            {
                let value = try object(
                    reference(at: content + (count + item) * referenceSize), path: Self.path(path, key),
                    depth: depth + 1)
                members.append((key, value))
            }
            return .object(members, position)
        default:
            return .scalar(try scalar(marker: marker, start: start, path: path), position)
        }
    }

    /// The fields of a record from dictionary `index`, each at its key path, its values read as
    /// plain values: no node or key path for what is inside them. `nil`, having read nothing, when
    /// the object is not a dictionary or its keys may mark a record of another shape (`fields`,
    /// `record`): ``DocumentShape`` reads those from nodes.
    package mutating func plainRecord(_ index: Int, path: String, depth: Int) throws -> [SourceField]? {
        let (marker, start) = try header(of: index, path: path, depth: depth)
        guard marker >> 4 == 0xD else { return nil }
        let (count, content) = try length(marker: marker, at: start, path: path)
        try checkRange(content, 2 * count * referenceSize, path: path)
        let unspent = budget
        let keys = try dictionaryKeys(count: count, content: content, path: path, depth: depth)
        let members = recordKeys(keys)
        if members.markOtherShape {
            budget = unspent
            return nil
        }
        visiting.append(index)
        defer { visiting.removeLast() }
        try spend(at: path)
        var fields: [SourceField] = []
        fields.reserveCapacity(count)
        for (item, key) in keys.enumerated() {
            let member = members.numbers[item]
            let value = try plainValue(reference(at: content + (count + item) * referenceSize), depth: depth + 1) {
                Self.path(path, Names.keys.name(member))
            }
            fields.append(SourceField(key: key, value: consume value, position: origin.at(path: path, member: member)))
        }
        return fields
    }

    /// What a record's keys tell, worked out once for each set of keys met lately
    /// (``dictionaryKeys(count:content:path:depth:)`` hands the same array again): their numbers
    /// in ``Names/keys``, and whether they may mark a record of another shape.
    private mutating func recordKeys(_ keys: [String]) -> RecordKeys {
        if let known = recentRecordKeys.first(where: { $0.keys == keys }) { return known }
        let known = RecordKeys(
            keys: keys, numbers: keys.map(Names.keys.number(of:)),
            markOtherShape: keys.contains("fields") || keys.contains("record"))
        if recentRecordKeys.count >= Self.recentKeySets { recentRecordKeys.removeFirst() }
        recentRecordKeys.append(known)
        return known
    }

    private struct RecordKeys {
        var keys: [String]
        var numbers: [UInt32]
        var markOtherShape: Bool
    }

    /// Builds object `index` and everything in it as a plain value; `path` is worked out only for
    /// an error.
    ///
    /// A scalar is read without the cycle check and the ``visiting`` stack: that stack holds
    /// containers only, and an object is a container or not by its own marker.
    private mutating func plainValue(_ index: Int, depth: Int, path: () -> String) throws -> PlainValue {
        let (marker, start) = try header(of: index, path: path(), depth: depth, checkingCycles: false)
        guard Self.isContainer(marker) else {
            try spend(at: path())
            return try scalar(marker: marker, start: start, path: path())
        }
        guard !visiting.contains(index) else { throw cycle(index, path()) }
        visiting.append(index)
        defer { visiting.removeLast() }
        try spend(at: path())
        switch marker >> 4 {
        case 0xA, 0xC:
            let (count, content) = try length(marker: marker, at: start, path: path())
            try checkRange(content, count * referenceSize, path: path())
            var items: [PlainValue] = []
            items.reserveCapacity(min(count, 4096))
            for item in 0..<count {
                items.append(
                    try plainValue(reference(at: content + item * referenceSize), depth: depth + 1) {
                        Self.path(path(), item)
                    })
            }
            return .array(items)
        case 0xD:
            let (count, content) = try length(marker: marker, at: start, path: path())
            try checkRange(content, 2 * count * referenceSize, path: path())
            var entries: [PlainEntry] = []
            for (item, key) in try dictionaryKeys(count: count, content: content, path: path(), depth: depth)
                .enumerated()
            {
                let value = try plainValue(reference(at: content + (count + item) * referenceSize), depth: depth + 1) {
                    Self.path(path(), key)
                }
                entries.append(PlainEntry(key, value))
            }
            return .dictionary(entries)
        default:
            return try scalar(marker: marker, start: start, path: path())
        }
    }

    /// Counts `values` against the budget.
    @inline(__always)
    private mutating func spend(_ values: Int = 1, at path: @autoclosure () -> String) throws {
        budget -= values
        guard budget >= 0 else {
            throw error(
                "its shared objects expand to more values than a property list of this size can hold", path(),
                code: .limitExceeded)
        }
    }

    /// The value of a scalar object (anything but an array or a dictionary) whose marker is at `start`.
    private func scalar(marker: UInt8, start: Int, path: @autoclosure () -> String) throws -> PlainValue {
        switch marker >> 4 {
        case 0x0:
            switch marker {
            case 0x00: return .null
            case 0x08: return .bool(false)
            case 0x09: return .bool(true)
            default: throw error("unknown marker 0x\(String(marker, radix: 16))", path())
            }
        case 0x1:
            let size = 1 << Int(marker & 0x0F)
            try checkRange(start + 1, size, path: path())
            if size == 16 {
                let high = readUInt(at: start + 1, size: 8)
                let value = Int64(bitPattern: readUInt(at: start + 9, size: 8))
                guard (high == 0 && value >= 0) || (high == .max && value < 0) else {
                    throw error("an integer beyond 64 bits", path(), code: .invalidValue)
                }
                return .integer(value)
            }
            guard size <= 8 else { throw error("an integer of \(size) bytes", path()) }
            let raw = readUInt(at: start + 1, size: size)
            return .integer(size == 8 ? Int64(bitPattern: raw) : Int64(raw))
        case 0x2:
            let size = 1 << Int(marker & 0x0F)
            try checkRange(start + 1, size, path: path())
            let raw = readUInt(at: start + 1, size: size)
            let value: Double =
                switch size {
                case 4: Double(Float(bitPattern: UInt32(raw)))
                case 8: Double(bitPattern: raw)
                default: throw error("a real of \(size) bytes", path())
                }
            guard value.isFinite else { throw error("a real that is not a finite number", path(), code: .invalidValue) }
            return .real(value)
        case 0x3:
            try checkRange(start + 1, 8, path: path())
            let seconds = Double(bitPattern: readUInt(at: start + 1, size: 8)) + Self.referenceDateOffset
            let milliseconds = (seconds * 1000).rounded()
            guard milliseconds.isFinite, let value = Int64(exactly: milliseconds), Timestamp.range.contains(value)
            else {
                throw error("a date outside the years 1 to 9999", path(), code: .invalidValue)
            }
            return .date(value)
        case 0x4:
            let (count, content) = try length(marker: marker, at: start, path: path())
            try checkRange(content, count, path: path())
            return .data(Data(bytes[content..<content + count]))
        case 0x5:
            let (count, content) = try length(marker: marker, at: start, path: path())
            try checkRange(content, count, path: path())
            return .string(String(decoding: bytes[content..<content + count], as: UTF8.self))
        case 0x6:
            let (count, content) = try length(marker: marker, at: start, path: path())
            try checkRange(content, count * 2, path: path())
            return .string(Self.string(utf16BigEndian: bytes[content..<content + 2 * count]))
        case 0x8:
            throw CloudSeedError(
                .malformedSource,
                "this binary property list holds UIDs, as NSKeyedArchiver archives do; export the objects as a plain property list first",
                at: position(path()))
        default:
            throw error("unknown marker 0x\(String(marker, radix: 16))", path())
        }
    }

    /// The text of big-endian UTF-16 code units, a lone surrogate read as U+FFFD (as
    /// `String(decoding:as:)` reads it), transcoded here straight into the string's storage
    /// rather than through the standard library's generic transcoding and a second buffer.
    package static func string(utf16BigEndian bytes: ArraySlice<UInt8>) -> String {
        bytes.withUnsafeBufferPointer { units in
            // A code unit makes at most three bytes of UTF-8; a surrogate pair (two units) makes four.
            String(unsafeUninitializedCapacity: units.count / 2 * 3) { utf8 in
                var written = 0
                func put(_ byte: UInt32) {
                    utf8[written] = UInt8(truncatingIfNeeded: byte)
                    written += 1
                }
                func unit(at index: Int) -> UInt32 { UInt32(units[index]) << 8 | UInt32(units[index + 1]) }
                var index = 0
                let end = units.count & ~1
                while index < end {
                    var scalar = unit(at: index)
                    index += 2
                    if scalar < 0x80 {
                        put(scalar)
                        continue
                    }
                    if (0xD800...0xDBFF).contains(scalar), index < end, (0xDC00...0xDFFF).contains(unit(at: index)) {
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (unit(at: index) - 0xDC00)
                        index += 2
                    } else if (0xD800...0xDFFF).contains(scalar) {
                        scalar = 0xFFFD
                    }
                    switch scalar {
                    case 0x80..<0x800:
                        put(0xC0 | scalar >> 6)
                        put(0x80 | scalar & 0x3F)
                    case 0x800..<0x10000:
                        put(0xE0 | scalar >> 12)
                        put(0x80 | scalar >> 6 & 0x3F)
                        put(0x80 | scalar & 0x3F)
                    default:
                        put(0xF0 | scalar >> 18)
                        put(0x80 | scalar >> 12 & 0x3F)
                        put(0x80 | scalar >> 6 & 0x3F)
                        put(0x80 | scalar & 0x3F)
                    }
                }
                return written
            }
        }
    }

    /// The key path of a dictionary's value.
    package static func path(_ path: String, _ key: String) -> String { SourcePosition.keyPath(path, key) }

    /// The key path of an array's element.
    package static func path(_ path: String, _ index: Int) -> String { "\(path)[\(index)]" }
}
