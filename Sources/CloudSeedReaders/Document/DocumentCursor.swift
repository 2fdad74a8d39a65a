package import CloudSeedCore

/// What the next value of a document is, before it is read.
package enum ValueStart {
    case array, object, scalar
}

/// Walks a JSON or property-list document one container level at a time, so that a reader can
/// stream the elements of a huge top-level array (or of an object's arrays) without building the
/// whole document, and build nodes only for one record at a time.
package protocol DocumentCursor {
    /// The kind of the next value, without consuming it.
    mutating func peekValue() throws -> ValueStart
    /// Consumes the start of an array; returns where it is.
    mutating func beginArray() throws -> SourcePosition
    /// Inside an array: `true` when another element follows, `false` (consuming the end) when not.
    mutating func nextElement() throws -> Bool
    /// Consumes the start of an object; returns where it is.
    mutating func beginObject() throws -> SourcePosition
    /// Inside an object: the next key and where it is, or `nil` (consuming the end) when there is none.
    mutating func nextKey() throws -> (key: String, position: SourcePosition)?
    /// Reads one whole value.
    mutating func readValue() throws -> DocumentNode
    /// Reads the next value, an array's element that should be a record: as the fields of a plain
    /// record where the cursor has a quicker way than ``readValue()``, else as a node.
    mutating func readRecord() throws -> RecordRead
    /// Checks that nothing but white space (or comments) follows the document.
    mutating func finish() throws
    /// Lets go of the input read so far; called between records.
    mutating func releaseConsumed()
}

extension DocumentCursor {
    package mutating func readRecord() throws -> RecordRead { .node(try readValue()) }
}

/// A record as a cursor read it.
package enum RecordRead {
    /// The fields of a plain object, each value read as a plain value, and where the object is:
    /// no node for the values or what is in them.
    case fields([SourceField], at: SourcePosition)
    /// A value that ``DocumentShape`` looks at as a node: not an object, or an object whose keys
    /// may make it a record of another shape (`fields`, `record`).
    case node(DocumentNode)
}

/// A cursor over a document already in memory (binary and OpenStep property lists).
package struct TreeCursor: DocumentCursor {
    private enum Frame {
        case array([DocumentNode], next: Int)
        case object([(key: String, node: DocumentNode)], next: Int)
    }

    private var pending: DocumentNode?
    private var frames: [Frame] = []

    package init(root: DocumentNode) { pending = root }

    private func current() throws -> DocumentNode {
        guard let pending else {
            throw CloudSeedError(.malformedSource, "internal: no value at this point of the document")
        }
        return pending
    }

    package mutating func peekValue() throws -> ValueStart {
        switch try current() {
        case .array: .array
        case .object: .object
        case .scalar: .scalar
        }
    }

    package mutating func beginArray() throws -> SourcePosition {
        let node = try current()
        frames.append(.array(node.items ?? [], next: 0))
        pending = nil
        return node.position
    }

    package mutating func nextElement() throws -> Bool {
        guard case .array(let items, let next)? = frames.last else { return false }
        guard next < items.count else {
            frames.removeLast()
            return false
        }
        frames[frames.count - 1] = .array(items, next: next + 1)
        pending = items[next]
        return true
    }

    package mutating func beginObject() throws -> SourcePosition {
        let node = try current()
        frames.append(.object(node.members ?? [], next: 0))
        pending = nil
        return node.position
    }

    package mutating func nextKey() throws -> (key: String, position: SourcePosition)? {
        guard case .object(let members, let next)? = frames.last else { return nil }
        guard next < members.count else {
            frames.removeLast()
            return nil
        }
        frames[frames.count - 1] = .object(members, next: next + 1)
        pending = members[next].node
        return (members[next].key, members[next].node.position)
    }

    package mutating func readValue() throws -> DocumentNode {
        let node = try current()
        pending = nil
        return node
    }

    package mutating func finish() throws {}

    package mutating func releaseConsumed() {}
}
