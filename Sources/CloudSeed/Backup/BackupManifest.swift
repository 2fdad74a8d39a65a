/// The `manifest.json` of a backup bundle: what the bundle holds and how to check it.
///
/// ```json
/// {
///   "format": 1,
///   "tool": "cloudseed 0.1",
///   "created": "2026-05-01T10:00:00.000Z",
///   "container": "iCloud.com.example.cloudseed",
///   "environments": [
///     {"environment": "development", "zones": [
///       {"database": "public", "owner": "__defaultOwner__", "zone": "_defaultZone", "recordCounts": {"Artist": 3}}
///     ]},
///     {"environment": "production", "zones": []}
///   ],
///   "files": [
///     {"path": "records/development/public/__defaultOwner__/_defaultZone/Artist.jsonl", "size": 1024, "sha256": "…"},
///     {"path": "schema/development.ckdb", "size": 512, "sha256": "…"}
///   ]
/// }
/// ```
///
/// Every environment has its schema file and every record count its records file (``BackupLayout``);
/// `files` lists those and the assets, in byte order of their paths. Two backups of the same store
/// differ only in `created`.
public struct BackupManifest: Hashable, Sendable {
    /// The version of the bundle layout this cloudseed writes and reads.
    package static let format = 1
    /// The tool that writes the bundle.
    package static let tool = "cloudseed 0.1"

    /// The records of one zone.
    package struct Zone: Hashable, Sendable {
        package var database: DatabaseScope
        package var zoneID: RecordZoneID
        /// Record counts by record type; only types with records are listed.
        package var recordCounts: [String: Int]

        package init(database: DatabaseScope, zoneID: RecordZoneID, recordCounts: [String: Int]) {
            self.database = database
            self.zoneID = zoneID
            self.recordCounts = recordCounts
        }
    }

    /// One environment of the container: its schema file and its zones with records.
    package struct Environment: Hashable, Sendable {
        package var environment: ContainerEnvironment
        package var zones: [Zone]

        package init(environment: ContainerEnvironment, zones: [Zone]) {
            self.environment = environment
            self.zones = zones
        }
    }

    /// A file of the bundle with its size and lower-case hexadecimal SHA-256.
    package struct File: Hashable, Sendable {
        package var path: String
        package var size: Int64
        package var sha256: String

        package init(path: String, size: Int64, sha256: String) {
            self.path = path
            self.size = size
            self.sha256 = sha256
        }
    }

    package var tool: String
    /// When the backup was made, in milliseconds since 1970.
    public var created: Int64
    public var container: String
    package var environments: [Environment]
    /// Every file but the manifest, in byte order of their paths.
    package var files: [File]

    package init(
        tool: String = BackupManifest.tool, created: Int64, container: String, environments: [Environment],
        files: [File]
    ) {
        self.tool = tool
        self.created = created
        self.container = container
        self.environments = environments
        self.files = files.sorted { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
    }

    /// How many records the bundle holds.
    public var recordCount: Int {
        environments.reduce(0) { $0 + $1.zones.reduce(0) { $0 + $1.recordCounts.values.reduce(0, +) } }
    }

    /// How many zones hold records.
    package var zoneCount: Int {
        environments.reduce(0) { $0 + $1.zones.count }
    }

    /// How many asset files the bundle holds.
    public var assetCount: Int {
        files.filter { $0.path.hasPrefix("assets/") }.count
    }

    /// `9 records in 3 zones, 4 assets`.
    public var summary: String {
        func counted(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }
        return "\(counted(recordCount, "record")) in \(counted(zoneCount, "zone")), \(counted(assetCount, "asset"))"
    }

    /// The records files the counts call for, each with its environment, database, zone, type and count.
    var recordFiles:
        [(
            path: String, environment: ContainerEnvironment, database: DatabaseScope, zoneID: RecordZoneID,
            recordType: String, count: Int
        )]
    {
        environments.flatMap { environment in
            environment.zones.flatMap { zone in
                zone.recordCounts.keys.sorted(by: SchemaDefinition.byteOrder).map { type in
                    (
                        BackupLayout.records(environment.environment, zone.database, zone.zoneID, recordType: type),
                        environment.environment, zone.database, zone.zoneID, type, zone.recordCounts[type]!
                    )
                }
            }
        }
    }

    /// The manifest as the bundle's `manifest.json`: one zone and one file per line.
    package var json: String {
        let environments = self.environments.map { environment in
            let zones = environment.zones.map { zone in
                let counts = zone.recordCounts.keys.sorted(by: SchemaDefinition.byteOrder).map {
                    ($0, String(zone.recordCounts[$0]!))
                }
                return "\n      "
                    + JSONText.object([
                        ("database", JSONText.quoted(zone.database.rawValue)),
                        ("owner", JSONText.quoted(zone.zoneID.ownerName)),
                        ("zone", JSONText.quoted(zone.zoneID.zoneName)), ("recordCounts", JSONText.object(counts)),
                    ])
            }
            return "\n    {\"environment\":\(JSONText.quoted(environment.environment.rawValue)),\"zones\":["
                + zones.joined(separator: ",") + (zones.isEmpty ? "]}" : "\n    ]}")
        }
        let files = self.files.map { file in
            "\n    "
                + JSONText.object([
                    ("path", JSONText.quoted(file.path)), ("size", String(file.size)),
                    ("sha256", JSONText.quoted(file.sha256)),
                ])
        }
        return "{\n  \"format\":\(Self.format),\n  \"tool\":\(JSONText.quoted(tool)),\n"
            + "  \"created\":\(JSONText.quoted(Timestamp.format(created) ?? "")),\n"
            + "  \"container\":\(JSONText.quoted(container)),\n"
            + "  \"environments\":[" + environments.joined(separator: ",") + "\n  ],\n"
            + "  \"files\":[" + files.joined(separator: ",") + "\n  ]\n}\n"
    }
}
