import CloudKitWire

extension BackupManifest {
    /// Reads `manifest.json` and checks that it describes a bundle: known keys and values, paths that
    /// stay inside the bundle, and exactly the files its environments and counts call for plus assets
    /// named by their SHA-256. `file` is the manifest's path for errors, which name line and column.
    static func parse(_ bytes: [UInt8], file: String) throws -> BackupManifest {
        var parser = JSONParser(input: ChunkedInput(bytes: bytes), file: file)
        let root: DocumentNode
        do {
            root = try parser.parseDocument()
        } catch let error as CloudSeedError {
            throw CloudSeedError(
                .damagedBackup, "the manifest is not valid JSON (\(error.message)); \(StrictObject.advice)",
                at: error.position)
        }
        if let format = root.member("format"), case .scalar(.integer(let version), _) = format, version != Self.format {
            throw CloudSeedError(
                .damagedBackup,
                "this backup has format \(version), which cloudseed 0.1 cannot read; restore it with the cloudseed that wrote it",
                at: format.position)
        }
        let object = try StrictObject(
            root, "the manifest", required: ["format", "tool", "created", "container", "environments", "files"])
        guard try object.integer("format") == Self.format else {
            throw StrictObject.mismatch("format", "1", object["format"]!)
        }
        let createdText = try object.string("created")
        guard let created = Timestamp.parse(createdText) else {
            throw StrictObject.error(
                "\"created\" must be an ISO 8601 time, not \"\(createdText)\"", at: object["created"]!.position)
        }
        var expected: [String: SourcePosition] = [:]
        var environments: [Environment] = []
        for node in try object.array("environments") {
            let environment = try parseEnvironment(node, expecting: &expected)
            guard !environments.contains(where: { $0.environment == environment.environment }) else {
                throw StrictObject.error(
                    "the environment \(environment.environment.rawValue) is listed twice", at: node.position)
            }
            environments.append(environment)
        }
        let files = try parseFiles(object.array("files"), expected: &expected)
        if let (path, position) = expected.min(by: {
            ($0.value.line ?? 0, $0.value.column ?? 0) < ($1.value.line ?? 0, $1.value.column ?? 0)
        }) {
            throw StrictObject.error(
                "the manifest does not list \(path), which its counts and environments call for", at: position)
        }
        return BackupManifest(
            tool: try object.string("tool"), created: created, container: try object.string("container"),
            environments: environments, files: files)
    }

    private static func parseEnvironment(_ node: DocumentNode, expecting expected: inout [String: SourcePosition])
        throws -> Environment
    {
        let object = try StrictObject(node, "an environment", required: ["environment", "zones"])
        let environment: ContainerEnvironment = try parseName(object, "environment")
        expected[BackupLayout.schema(environment)] = object.position
        var zones: [Zone] = []
        for zoneNode in try object.array("zones") {
            let zone = try StrictObject(zoneNode, "a zone", required: ["database", "owner", "zone", "recordCounts"])
            let database: DatabaseScope = try parseName(zone, "database")
            let zoneID = RecordZoneID(zoneName: try zone.string("zone"), ownerName: try zone.string("owner"))
            guard !zones.contains(where: { $0.database == database && $0.zoneID == zoneID }) else {
                throw StrictObject.error(
                    "the zone \(zoneID.zoneName) of \(zoneID.ownerName) is listed twice", at: zoneNode.position)
            }
            guard let countNodes = zone["recordCounts"]?.members else {
                throw StrictObject.mismatch("recordCounts", "an object", zone["recordCounts"]!)
            }
            var counts: [String: Int] = [:]
            for (recordType, countNode) in countNodes {
                let count = try StrictObject.integer(countNode, "the count of \(recordType)")
                guard count > 0 else {
                    throw StrictObject.error(
                        "the count of \(recordType) must be at least 1, not \(count)", at: countNode.position)
                }
                counts[recordType] = Int(count)
                expected[BackupLayout.records(environment, database, zoneID, recordType: recordType)] =
                    countNode.position
            }
            zones.append(Zone(database: database, zoneID: zoneID, recordCounts: counts))
        }
        return Environment(environment: environment, zones: zones)
    }

    private static func parseFiles(_ nodes: [DocumentNode], expected: inout [String: SourcePosition]) throws -> [File] {
        var files: [File] = []
        var seen = Set<String>()
        for node in nodes {
            let object = try StrictObject(node, "a file", required: ["path", "size", "sha256"])
            let path = try object.string("path")
            let position = object["path"]!.position
            guard BackupLayout.staysInside(path) else {
                throw StrictObject.error("the path \"\(path)\" leaves the bundle", at: position)
            }
            guard seen.insert(path).inserted else { throw StrictObject.error("\(path) is listed twice", at: position) }
            let sha256 = try object.string("sha256")
            guard BackupLayout.isSHA256(sha256) else {
                throw StrictObject.error(
                    "\"sha256\" must be 64 lower-case hexadecimal digits", at: object["sha256"]!.position)
            }
            let size = try object.integer("size")
            guard size >= 0 else {
                throw StrictObject.error("\"size\" must not be negative", at: object["size"]!.position)
            }
            if expected.removeValue(forKey: path) == nil, path != BackupLayout.asset(sha256) {
                throw StrictObject.error(
                    path.hasPrefix("assets/")
                        ? "\(path) is not named by its SHA-256 \(sha256)"
                        : "\(path) is not a file of a backup of this manifest's environments and counts",
                    at: position)
            }
            files.append(File(path: path, size: size, sha256: sha256))
        }
        return files
    }

    private static func parseName<Name: RawRepresentable>(_ object: StrictObject, _ key: String) throws -> Name
    where Name.RawValue == String {
        let text = try object.string(key)
        guard let name = Name(rawValue: text) else {
            throw StrictObject.error("unknown \(key) \"\(text)\"", at: object[key]!.position)
        }
        return name
    }
}
