package import CloudSeedCore
package import CloudSeedReaders

/// A JSON object of a backup, read strictly: it must have every required key, no key it does not
/// know, and values of the right kinds. Errors name the position of the value at fault and end with
/// what to do about a damaged bundle.
package struct StrictObject {
    package let position: SourcePosition
    /// The members in order: an object has a dozen keys at most, found faster by a look along
    /// them than by hashing each into a dictionary.
    private let members: [(key: String, node: DocumentNode)]

    /// What every error of a damaged bundle tells the user to do.
    package static let advice = "restore from an intact backup"

    /// Reads `node`, `what` naming it in errors (`the record`, `the location`); `lenient` lets keys
    /// it does not know go by, as a server's answers carry (`deviceID`, `downloadURL`).
    package init(
        _ node: DocumentNode, _ what: @autoclosure () -> String, required: [String], optional: [String] = [],
        lenient: Bool = false
    ) throws {
        guard let list = node.members else {
            throw Self.error("\(what()) must be a JSON object, not \(Self.kind(of: node))", at: node.position)
        }
        position = node.position
        members = list
        for member in list where !lenient && !required.contains(member.key) && !optional.contains(member.key) {
            throw Self.error(
                "\(what()) has the unknown key \"\(member.key)\", which cloudseed cannot restore",
                at: member.node.position)
        }
        for key in required where self[key] == nil {
            throw Self.error("\(what()) has no \"\(key)\"", at: node.position)
        }
    }

    /// The value of `key`, if present; the first, where the object gives it twice.
    package subscript(key: String) -> DocumentNode? { members.first { $0.key == key }?.node }

    package func string(_ key: String) throws -> String {
        let node = try required(key)
        guard case .scalar(.string(let text), _) = node else { throw Self.mismatch(key, "a string", node) }
        return text
    }

    package func integer(_ key: String) throws -> Int64 {
        try Self.integer(required(key), key)
    }

    package func array(_ key: String) throws -> [DocumentNode] {
        let node = try required(key)
        guard let items = node.items else { throw Self.mismatch(key, "an array", node) }
        return items
    }

    package func object(_ key: String, required: [String], optional: [String] = []) throws -> StrictObject {
        try StrictObject(self.required(key), "\"\(key)\"", required: required, optional: optional)
    }

    private func required(_ key: String) throws -> DocumentNode {
        guard let node = self[key] else { throw Self.error("no \"\(key)\"", at: position) }
        return node
    }

    // MARK: Values

    package static func integer(_ node: DocumentNode, _ what: String) throws -> Int64 {
        guard case .scalar(.integer(let number), _) = node else { throw mismatch(what, "an integer", node) }
        return number
    }

    /// A number, integer or not, as a double.
    package static func number(_ node: DocumentNode, _ what: String) throws -> Double {
        switch node {
        case .scalar(.real(let number), _): return number
        case .scalar(.integer(let number), _): return Double(number)
        default: throw mismatch(what, "a number", node)
        }
    }

    package static func string(_ node: DocumentNode, _ what: String) throws -> String {
        guard case .scalar(.string(let text), _) = node else { throw mismatch(what, "a string", node) }
        return text
    }

    package static func mismatch(_ what: String, _ expected: String, _ node: DocumentNode) -> CloudSeedError {
        let name = what.hasPrefix("\"") || what.contains(" ") ? what : "\"\(what)\""
        return error("\(name) must be \(expected), not \(kind(of: node))", at: node.position)
    }

    package static func error(_ message: String, at position: SourcePosition) -> CloudSeedError {
        CloudSeedError(.damagedBackup, "\(message); \(advice)", at: position)
    }

    private static func kind(of node: DocumentNode) -> String {
        switch node {
        case .object: "an object"
        case .array: "an array"
        case .scalar(let value, _):
            switch value {
            case .string, .text: "a string"
            case .integer: "an integer"
            case .real: "a number with a fraction"
            case .bool(let flag): "\(flag)"
            case .null: "null"
            case .date: "a date"
            case .data: "data"
            case .array: "an array"
            case .dictionary: "an object"
            }
        }
    }
}
