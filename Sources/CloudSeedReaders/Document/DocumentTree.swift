package import CloudSeedCore

/// A parsed document (JSON or property list) with the position of every value.
package indirect enum DocumentNode: Sendable {
    case scalar(PlainValue, SourcePosition)
    case array([DocumentNode], SourcePosition)
    case object([(key: String, node: DocumentNode)], SourcePosition)

    /// The node of a plain value, every value in it at `position`.
    package init(plain value: PlainValue, at position: SourcePosition) {
        switch value {
        case .array(let items): self = .array(items.map { DocumentNode(plain: $0, at: position) }, position)
        case .dictionary(let entries):
            self = .object(entries.map { ($0.key, DocumentNode(plain: $0.value, at: position)) }, position)
        default: self = .scalar(value, position)
        }
    }

    package var position: SourcePosition {
        switch self {
        case .scalar(_, let position), .array(_, let position), .object(_, let position): position
        }
    }

    /// The plain value, positions dropped.
    package var plainValue: PlainValue {
        switch self {
        case .scalar(let value, _): value
        case .array(let items, _): .array(items.map(\.plainValue))
        case .object(let members, _): .dictionary(members.map { PlainEntry($0.key, $0.node.plainValue) })
        }
    }

    package var members: [(key: String, node: DocumentNode)]? {
        if case .object(let members, _) = self { return members }
        return nil
    }

    package var items: [DocumentNode]? {
        if case .array(let items, _) = self { return items }
        return nil
    }

    package func member(_ key: String) -> DocumentNode? {
        members?.first { $0.key == key }?.node
    }

    package var stringValue: String? {
        if case .scalar(.string(let text), _) = self { return text }
        return nil
    }
}
