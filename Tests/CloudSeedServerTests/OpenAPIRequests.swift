import CloudSeed
import Foundation
import Yams

/// Requests made from an OpenAPI description: each operation's path with its path parameters
/// pinned to a served container, a JSON body drawn from its request schema, and now and then a
/// value of the wrong type, a field left out or a body that is no JSON at all, so that a server is
/// tried on what the description allows and on what it does not.
struct OpenAPIRequests {
    struct Operation {
        var method: String
        var path: String
        var bodySchema: [String: Any]?
    }

    struct Request: CustomStringConvertible {
        var method: String
        var path: String
        var body: Data?

        var description: String {
            "\(method) \(path) \(body.map { String(decoding: $0, as: UTF8.self) } ?? "")"
        }
    }

    let operations: [Operation]
    private let document: [String: Any]
    private var random: SeededGenerator
    /// The values path parameters take: most often the first.
    private let pathValues: [String: [String]]

    init(specification: URL, pathValues: [String: [String]], seed: UInt64) throws {
        let text = try String(contentsOf: specification, encoding: .utf8)
        document = try Yams.load(yaml: text) as? [String: Any] ?? [:]
        self.pathValues = pathValues
        random = SeededGenerator(seed: seed)
        var operations: [Operation] = []
        let paths = document["paths"] as? [String: Any] ?? [:]
        for path in paths.keys.sorted() {
            let methods = paths[path] as? [String: Any] ?? [:]
            for method in ["get", "post"] {
                guard let operation = methods[method] as? [String: Any] else { continue }
                let content = (operation["requestBody"] as? [String: Any])?["content"] as? [String: Any]
                let schema = (content?["application/json"] as? [String: Any])?["schema"] as? [String: Any]
                operations.append(Operation(method: method.uppercased(), path: path, bodySchema: schema))
            }
        }
        self.operations = operations
    }

    /// A request of `operation`.
    mutating func request(for operation: Operation) -> Request {
        var path = operation.path
        for (name, values) in pathValues {
            let value = random.chance(0.9) ? values[0] : random.element(of: values + Self.strings)
            path = path.replacingOccurrences(
                of: "{\(name)}", with: value.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? value)
        }
        guard let schema = operation.bodySchema else { return Request(method: operation.method, path: path) }
        let body: Data
        switch random.below(20) {
        case 0: body = Data(random.element(of: ["", "{", "[]", "null", "\"text\"", "{\"a\":}", "\u{FEFF}{}"]).utf8)
        case 1: body = Data((0..<random.below(64)).map { _ in UInt8.random(in: 0...255, using: &random) })
        default:
            let value = self.value(of: schema, depth: 0)
            body = (try? JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed])) ?? Data("{}".utf8)
        }
        return Request(method: operation.method, path: path, body: body)
    }

    /// A value `schema` describes, or one it does not, now and then.
    private mutating func value(of schema: [String: Any], depth: Int) -> Any {
        let schema = resolved(schema)
        if depth > 6 || random.chance(0.04) { return wrongValue() }
        if let choices = (schema["oneOf"] ?? schema["anyOf"]) as? [[String: Any]], !choices.isEmpty {
            return value(of: random.element(of: choices), depth: depth + 1)
        }
        if let choices = schema["enum"] as? [Any], !choices.isEmpty, random.chance(0.9) {
            return random.element(of: choices)
        }
        switch schema["type"] as? String {
        case "object", nil:
            var object: [String: Any] = [:]
            for (name, property) in (schema["properties"] as? [String: Any] ?? [:]).sorted(by: { $0.key < $1.key })
            where random.chance(0.75) {
                object[name] = value(of: property as? [String: Any] ?? [:], depth: depth + 1)
            }
            if let extra = schema["additionalProperties"] as? [String: Any] {
                for _ in 0..<random.below(4) {
                    object[random.element(of: Self.fieldNames)] = value(of: extra, depth: depth + 1)
                }
            }
            return object
        case "array":
            let items = schema["items"] as? [String: Any] ?? [:]
            return (0..<random.below(4)).map { _ in value(of: items, depth: depth + 1) }
        case "integer": return random.element(of: Self.integers)
        case "number": return random.element(of: Self.numbers)
        case "boolean": return random.chance(0.5)
        default: return random.element(of: Self.strings + Self.fieldNames)
        }
    }

    /// `schema` with its `$ref` followed.
    private func resolved(_ schema: [String: Any]) -> [String: Any] {
        guard let reference = schema["$ref"] as? String, reference.hasPrefix("#/") else { return schema }
        var node: Any = document
        for part in reference.dropFirst(2).split(separator: "/") {
            node = (node as? [String: Any])?[String(part)] ?? [:]
        }
        return resolved(node as? [String: Any] ?? [:])
    }

    private mutating func wrongValue() -> Any {
        switch random.below(6) {
        case 0: NSNull()
        case 1: random.element(of: Self.integers)
        case 2: random.element(of: Self.strings)
        case 3: [random.element(of: Self.strings)]
        case 4: ["value": random.element(of: Self.numbers)]
        default: random.chance(0.5)
        }
    }

    private static let strings = [
        "", "Artwork", "Artist", "115 Mei Chen", "Mei Chen", "_defaultZone", "Notes", "__defaultOwner__", "a/b",
        "../..", "%00", "é🙂", String(repeating: "x", count: 3000), "1", "-1", "NaN", "2026-12-07T00:00:00Z",
        "STRING", "ASSETID", "REFERENCE", "LOCATION", "TIMESTAMP", "BYTES", "DOUBLE", "INT64",
        "STRING_LIST", "cloudkit.share", "AAAA", "null",
    ]
    private static let fieldNames = ["title", "price", "artist", "image", "tags", "born", "location", "name", "x"]
    private static let integers: [Int64] = [0, 1, -1, 2, 199, 200, 201, 1_000_000, .max, .min]
    private static let numbers: [Double] = [0.0, -0.5, 1250.5, 1e308, -1e308, 91.0, -181.0, 5e-324]
}

/// The draws the requests are made of, from the library's SplitMix64: the same requests for the
/// same seed, so that a failure can be made again.
extension SeededGenerator {
    mutating func chance(_ probability: Double) -> Bool {
        Double.random(in: 0..<1, using: &self) < probability
    }

    mutating func below(_ bound: Int) -> Int {
        bound <= 0 ? 0 : Int.random(in: 0..<bound, using: &self)
    }

    mutating func element<Element>(of elements: [Element]) -> Element {
        elements[below(elements.count)]
    }
}
