import Foundation
import Yams

/// Reads a fixtures manifest from JSON or YAML, strictly: an unknown key is an error at its line,
/// because a typo must not be ignored.
extension FixtureManifest {
    /// Reads the manifest at `path`; `.yaml` and `.yml` files are YAML, others JSON.
    public init(path: String) throws {
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8)
        else {
            throw CloudSeedError(
                .fileAccess, "cannot read the manifest; check the path", at: SourcePosition(file: path))
        }
        let isYAML = ["yaml", "yml"].contains((path as NSString).pathExtension.lowercased())
        let root: DocumentNode
        if isYAML {
            root = try YAMLDocument.parse(text, file: path)
        } else {
            var parser = JSONParser(input: ChunkedInput(bytes: Array(data)), file: path)
            root = try parser.parseDocument()
        }
        try self.init(node: root, folder: (path as NSString).deletingLastPathComponent)
    }

    init(node: DocumentNode, folder: String) throws {
        let fields = try ManifestObject(
            node, what: "the manifest",
            keys: [
                "container", "environment", "database", "zone", "user", "schema", "model", "configuration", "sources",
            ])
        func resolved(_ file: String) -> String {
            file.hasPrefix("/") || folder.isEmpty ? file : (folder as NSString).appendingPathComponent(file)
        }
        let environment = try fields.string("environment").map { name in
            guard let value = ContainerEnvironment(rawValue: name) else {
                throw fields.error("environment", "is development or production")
            }
            return value
        }
        let database = try fields.string("database").map { name in
            guard let value = DatabaseScope(rawValue: name) else {
                throw fields.error("database", "is public, private or shared")
            }
            return value
        }
        guard let sourceNodes = fields["sources"]?.items else {
            throw fields.error("sources", "is an array of sources, each with a \"file\"")
        }
        let model = try fields.string("model").map(resolved)
        // An app's objects go where Core Data keeps them, unless the manifest says otherwise.
        let chosenDatabase = database ?? (model == nil ? .public : .private)
        let defaultZone =
            model != nil && chosenDatabase != .public ? CoreDataNames.zoneName : RecordZoneID.defaultZoneName
        self.init(
            container: try fields.string("container") ?? StoreScope.defaultContainer,
            environment: environment ?? .development,
            database: chosenDatabase, zone: try fields.string("zone") ?? defaultZone,
            user: try fields.string("user") ?? RecordZoneID.defaultOwnerName,
            schema: try fields.string("schema").map(resolved),
            sources: try sourceNodes.map { try FixtureSource(node: $0, resolve: resolved) })
        self.model = model
        modelConfiguration = try fields.string("configuration")
    }
}

extension FixtureSource {
    init(node: DocumentNode, resolve: (String) -> String) throws {
        let fields = try ManifestObject(
            node, what: "a source", keys: ["file", "recordType", "recordName", "format", "fields"])
        guard let file = try fields.string("file") else {
            throw fields.error("file", "names the source file, relative to the manifest")
        }
        let format = try fields.string("format").map { name in
            guard let value = SourceFormat(rawValue: name) else {
                throw fields.error("format", "is csv, tsv, json, jsonl or plist")
            }
            return value
        }
        var mapped: [String: FixtureField] = [:]
        if let node = fields["fields"] {
            guard let members = node.members else {
                throw CloudSeedError(.malformedSource, "\"fields\" must be an object of field names", at: node.position)
            }
            for (name, value) in members { mapped[name] = try FixtureField(node: value) }
        }
        self.init(
            file: resolve(file), recordType: try fields.string("recordType"),
            recordName: try fields.string("recordName"), format: format, fields: mapped)
    }
}

extension FixtureField {
    init(node: DocumentNode) throws {
        let fields = try ManifestObject(
            node, what: "a field", keys: ["type", "reference", "action", "asset", "location", "dateFormat"])
        self.init()
        if let name = try fields.string("type") {
            guard let parsed = FieldType(name: name) else {
                throw fields.error("type", "is a CloudKit type such as STRING, DOUBLE or LIST<STRING>")
            }
            type = parsed
        }
        reference = try fields.string("reference")
        if let name = try fields.string("action") {
            guard let parsed = ReferenceAction(rawValue: name) else {
                throw fields.error("action", "is NONE or DELETE_SELF")
            }
            action = parsed
        }
        if let format = try fields.string("dateFormat") {
            guard (try? DateFormatPin(parsing: format)) != nil, !format.contains("=") else {
                throw fields.error("dateFormat", "is MM/dd/yyyy or dd/MM/yyyy, with /, . or - between the numbers")
            }
            dateFormat = format
        }
        if let value = fields["asset"] {
            guard case .scalar(.bool(let flag), _) = value else { throw fields.error("asset", "is true or false") }
            asset = flag
        }
        if let value = fields["location"] {
            if let text = value.stringValue {
                location = [text]
            } else if let items = value.items, let columns = Optional(items.compactMap(\.stringValue)),
                columns.count == 2, items.count == 2
            {
                location = columns
            } else {
                throw fields.error(
                    "location", "is [\"latitude column\", \"longitude column\"] or one column holding \"lat,lon\"")
            }
        }
    }
}

/// An object of a manifest whose keys are checked against the ones allowed.
struct ManifestObject {
    let node: DocumentNode
    private let members: [String: DocumentNode]

    init(_ node: DocumentNode, what: String, keys: Set<String>) throws {
        guard let list = node.members else {
            throw CloudSeedError(.malformedSource, "\(what) must be an object", at: node.position)
        }
        for (key, value) in list where !keys.contains(key) {
            throw CloudSeedError(
                .malformedSource,
                "unknown key \"\(key)\" in \(what); the keys are \(keys.sorted().joined(separator: ", "))",
                at: value.position)
        }
        self.node = node
        members = Dictionary(list.map { ($0.key, $0.node) }, uniquingKeysWith: { first, _ in first })
    }

    subscript(key: String) -> DocumentNode? { members[key] }

    func string(_ key: String) throws -> String? {
        guard let value = members[key] else { return nil }
        guard let text = value.stringValue else { throw error(key, "is a string") }
        return text
    }

    func error(_ key: String, _ rule: String) -> CloudSeedError {
        CloudSeedError(.malformedSource, "\"\(key)\" \(rule)", at: members[key]?.position ?? node.position)
    }
}

/// YAML read through Yams into the same document nodes JSON gives, with lines and columns.
enum YAMLDocument {
    static func parse(_ text: String, file: String) throws -> DocumentNode {
        let node: Node?
        do {
            node = try Yams.compose(yaml: text)
        } catch let error as YamlError {
            throw CloudSeedError(.malformedSource, "not valid YAML: \(error)", at: SourcePosition(file: file))
        }
        guard let node else {
            throw CloudSeedError(
                .malformedSource, "the manifest is empty", at: SourcePosition(file: file, line: 1, column: 1))
        }
        return convert(node, file: file)
    }

    private static func convert(_ node: Node, file: String) -> DocumentNode {
        let position = SourcePosition(file: file, line: node.mark?.line, column: node.mark?.column)
        switch node {
        case .mapping(let mapping):
            return .object(mapping.map { ($0.key.string ?? "", convert($0.value, file: file)) }, position)
        case .sequence(let sequence):
            return .array(sequence.map { convert($0, file: file) }, position)
        case .scalar:
            if node.null != nil { return .scalar(.null, position) }
            if let flag = node.bool { return .scalar(.bool(flag), position) }
            if let number = node.int { return .scalar(.integer(Int64(number)), position) }
            return .scalar(.string(node.string ?? ""), position)
        case .alias:
            return .scalar(.null, position)
        }
    }
}
