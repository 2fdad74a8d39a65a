package import CloudSeedCore

/// Walks a binary property list without building it whole: its object table lets each element of
/// the top-level array (or of an object's arrays) be built on its own when the reader asks for it,
/// so memory holds the file and one record, not a tree of every value. The checks are the parser's.
package struct BinaryPropertyListCursor: DocumentCursor {
    private var parser: BinaryPropertyListParser
    /// An array or dictionary being walked.
    private struct Frame {
        var object: Int
        /// Where its references start.
        var content: Int
        var count: Int
        var next = 0
        var path: String
        var depth: Int
        /// A dictionary's keys, in order; `nil` for an array.
        var keys: [String]?
    }

    /// The containers being walked, innermost last; the parser's ``BinaryPropertyListParser/visiting``
    /// holds their objects, in the same order.
    private var frames: [Frame] = []
    /// The object to be read next, with its key path and depth.
    private var pending: (object: Int, path: String, depth: Int)?

    package init(bytes: [UInt8], file: String) throws {
        parser = BinaryPropertyListParser(bytes: bytes, file: file)
        pending = (try parser.topObject(), "", 0)
    }

    private func current() throws -> (object: Int, path: String, depth: Int) {
        guard let pending else {
            throw CloudSeedError(.malformedSource, "internal: no value at this point of the document")
        }
        return pending
    }

    /// The pending object's marker and start, checked with the containers around it as ancestors.
    private mutating func header() throws -> (marker: UInt8, start: Int) {
        let (index, path, depth) = try current()
        return try parser.header(of: index, path: path, depth: depth)
    }

    package mutating func peekValue() throws -> ValueStart {
        switch try header().marker >> 4 {
        case 0xA, 0xC: .array
        case 0xD: .object
        default: .scalar
        }
    }

    package mutating func beginArray() throws -> SourcePosition {
        try begin(isObject: false)
    }

    package mutating func beginObject() throws -> SourcePosition {
        try begin(isObject: true)
    }

    private mutating func begin(isObject: Bool) throws -> SourcePosition {
        let (index, path, depth) = try current()
        let (marker, start) = try header()
        let (count, content) = try parser.length(marker: marker, at: start, path: path)
        try parser.checkRange(content, (isObject ? 2 : 1) * count * parser.referenceSize, path: path)
        var frame = Frame(object: index, content: content, count: count, path: path, depth: depth)
        parser.visiting.append(index)
        if isObject {
            do {
                frame.keys = try parser.dictionaryKeys(count: count, content: content, path: path, depth: depth)
            } catch {
                parser.visiting.removeLast()
                throw error
            }
        }
        frames.append(frame)
        pending = nil
        return parser.position(path)
    }

    package mutating func nextElement() throws -> Bool {
        guard let frame = frames.last, frame.keys == nil else { return false }
        guard frame.next < frame.count else {
            endFrame()
            return false
        }
        frames[frames.count - 1].next += 1
        pending = (
            parser.reference(at: frame.content + frame.next * parser.referenceSize),
            BinaryPropertyListParser.path(frame.path, frame.next), frame.depth + 1
        )
        return true
    }

    package mutating func nextKey() throws -> (key: String, position: SourcePosition)? {
        guard let frame = frames.last, let keys = frame.keys else { return nil }
        guard frame.next < frame.count else {
            endFrame()
            return nil
        }
        frames[frames.count - 1].next += 1
        let key = keys[frame.next]
        let path = BinaryPropertyListParser.path(frame.path, key)
        pending = (
            parser.reference(at: frame.content + (frame.count + frame.next) * parser.referenceSize), path,
            frame.depth + 1
        )
        return (key, parser.position(path))
    }

    package mutating func readValue() throws -> DocumentNode {
        let (index, path, depth) = try current()
        pending = nil
        return try parser.object(index, path: path, depth: depth)
    }

    package mutating func readRecord() throws -> RecordRead {
        let (index, path, depth) = try current()
        guard let fields = try parser.plainRecord(index, path: path, depth: depth) else {
            return .node(try readValue())
        }
        pending = nil
        return .fields(fields, at: parser.position(path))
    }

    private mutating func endFrame() {
        frames.removeLast()
        parser.visiting.removeLast()
    }

    package mutating func finish() throws {}

    package mutating func releaseConsumed() {}
}
