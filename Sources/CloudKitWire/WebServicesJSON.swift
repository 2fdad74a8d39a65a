import CloudSeedCore
package import CloudSeedReaders

/// A JSON value of a CloudKit Web Services request, read by the project's JSON parser: what the
/// server takes from a request body, with each value's position for the errors it answers.
package struct WebServicesJSON: Sendable {
    package let node: DocumentNode

    package init(_ node: DocumentNode) {
        self.node = node
    }

    /// Parses a request body; an empty body is an empty object, as CloudKit takes it.
    package init(parsing bytes: [UInt8]) throws {
        guard bytes.contains(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) else {
            self.init(.object([], SourcePosition(file: "request")))
            return
        }
        var parser = JSONParser(input: ChunkedInput(bytes: bytes), file: "request")
        self.init(try parser.parseDocument())
    }

    /// The member `key` of an object.
    package subscript(key: String) -> WebServicesJSON? {
        node.member(key).map(WebServicesJSON.init)
    }

    /// The elements of an array.
    package var items: [WebServicesJSON]? { node.items?.map(WebServicesJSON.init) }

    /// The members of an object, in order.
    package var members: [(key: String, value: WebServicesJSON)]? {
        node.members?.map { ($0.key, WebServicesJSON($0.node)) }
    }

    /// A number, integer or real.
    package var number: Double? {
        switch node {
        case .scalar(.integer(let number), _): Double(number)
        case .scalar(.real(let number), _): number
        default: nil
        }
    }

    /// Whether the value is an object.
    package var isObject: Bool { node.members != nil }

    package var string: String? { node.stringValue }

    package var integer: Int64? {
        if case .scalar(.integer(let number), _) = node { return number }
        return nil
    }

    package var bool: Bool? {
        if case .scalar(.bool(let flag), _) = node { return flag }
        return nil
    }

    /// A scalar written as text: a string as it is, a number in its shortest form, a boolean as
    /// `1` or `0` (CloudKit keeps booleans as INT64); `nil` for objects, arrays and null.
    package var scalarText: String? {
        guard case .scalar(let value, _) = node else { return nil }
        if case .bool(let flag) = value { return flag ? "1" : "0" }
        return value.namingText
    }

    /// Where the value starts in the request, as `request:1:42`.
    package var position: String { node.position.description }
}
