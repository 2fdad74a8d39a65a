import CloudSeedCore
import CloudSeedSchema

extension StoreInventory {
    /// The inventory for people: each container environment's record types with their fields,
    /// then each database and zone with its record counts.
    package var text: String { text(annotating: { _, _ in nil }) }

    /// ``text``, with what `annotation` says of a field of a record type after its type (a
    /// Core Data link's target).
    package func text(annotating annotation: (_ recordType: String, _ field: String) -> String?) -> String {
        var lines: [String] = []
        let scopes = Set(schemas.keys).union(
            zones.map { SchemaScope(container: $0.container, environment: $0.environment) })
        for scope in scopes.sorted(by: {
            ($0.container, $0.environment.rawValue) < ($1.container, $1.environment.rawValue)
        }) {
            lines.append("\(scope.container) \(scope.environment.rawValue)")
            let schema = schemas[scope] ?? Schema()
            lines.append("  record types:" + (schema.recordTypes.isEmpty ? " none" : ""))
            for recordType in schema.sortedRecordTypes {
                lines.append("    \(recordType.name)")
                let width = recordType.fields.keys.map(\.count).max() ?? 0
                for name in recordType.sortedFieldNames {
                    let note = annotation(recordType.name, name).map { " " + $0 } ?? ""
                    lines.append(
                        "      \(name.padding(toLength: width, withPad: " ", startingAt: 0)) \(recordType.fields[name]!.schemaName)\(note)"
                    )
                }
            }
            for zone in zones where zone.container == scope.container && zone.environment == scope.environment {
                lines.append(
                    "  \(zone.database.rawValue) database, zone \(zone.zoneID.zoneName) (owner \(zone.zoneID.ownerName)):"
                )
                for name in zone.recordCounts.keys.sorted() where zone.recordCounts[name]! > 0 {
                    lines.append("    \(name): \(zone.recordCounts[name]!) records")
                }
            }
        }
        return lines.isEmpty ? "The store is empty.\n" : lines.joined(separator: "\n") + "\n"
    }

    /// The inventory as JSON, for scripts.
    package var json: String {
        let containers = Set(schemas.keys.map(\.container)).union(zones.map(\.container)).sorted()
        return JSONText.object([
            (
                "containers",
                JSONText.array(
                    containers.map { container in
                        JSONText.object([
                            ("identifier", JSONText.quoted(container)),
                            (
                                "environments",
                                JSONText.array(
                                    ContainerEnvironment.allCases.compactMap { environment in
                                        let scope = SchemaScope(container: container, environment: environment)
                                        let environmentZones = zones.filter {
                                            $0.container == container && $0.environment == environment
                                        }
                                        guard schemas[scope] != nil || !environmentZones.isEmpty else { return nil }
                                        return JSONText.object([
                                            ("name", JSONText.quoted(environment.rawValue)),
                                            (
                                                "recordTypes",
                                                JSONText.array(
                                                    (schemas[scope] ?? Schema()).sortedRecordTypes.map { recordType in
                                                        JSONText.object([
                                                            ("name", JSONText.quoted(recordType.name)),
                                                            (
                                                                "fields",
                                                                JSONText.object(
                                                                    recordType.sortedFieldNames.map {
                                                                        (
                                                                            $0,
                                                                            JSONText.quoted(
                                                                                recordType.fields[$0]!.schemaName)
                                                                        )
                                                                    })
                                                            ),
                                                        ])
                                                    })
                                            ),
                                            (
                                                "zones",
                                                JSONText.array(
                                                    environmentZones.map { zone in
                                                        JSONText.object([
                                                            ("database", JSONText.quoted(zone.database.rawValue)),
                                                            ("zoneName", JSONText.quoted(zone.zoneID.zoneName)),
                                                            ("ownerRecordName", JSONText.quoted(zone.zoneID.ownerName)),
                                                            (
                                                                "recordCounts",
                                                                JSONText.object(
                                                                    zone.recordCounts.keys.sorted().map {
                                                                        ($0, String(zone.recordCounts[$0]!))
                                                                    })
                                                            ),
                                                        ])
                                                    })
                                            ),
                                        ])
                                    })
                            ),
                        ])
                    })
            )
        ]) + "\n"
    }
}
