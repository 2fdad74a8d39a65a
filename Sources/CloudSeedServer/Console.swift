import CloudSeed

/// What the console page (``ConsolePage``) reads besides the Web Services endpoints: the store's
/// container environments with their zones and record counts, and each environment's schema with
/// its fields' indexes and its CKSL text.
enum Console {
    /// `{"environments": [{container, environment, zones: [{database, zoneName, ownerRecordName, recordCounts}]}]}`.
    static func environments(store: ContainerStore) throws -> String {
        let inventory = try store.exclusively { try store.backend.read { try store.backend.inventory() } }
        var scopes = Set(inventory.schemas.keys.map { "\($0.container)\n\($0.environment.rawValue)" })
        scopes.formUnion(inventory.zones.map { "\($0.container)\n\($0.environment.rawValue)" })
        let environments = scopes.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.map { key in
            let parts = key.split(separator: "\n").map(String.init)
            let zones = inventory.zones.filter { $0.container == parts[0] && $0.environment.rawValue == parts[1] }.map {
                zone in
                let counts = zone.recordCounts.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }.map {
                    ($0.key, String($0.value))
                }
                return JSONText.object([
                    ("database", JSONText.quoted(zone.database.rawValue)),
                    ("zoneName", JSONText.quoted(zone.zoneID.zoneName)),
                    ("ownerRecordName", JSONText.quoted(zone.zoneID.ownerName)),
                    ("recordCounts", JSONText.object(counts)),
                ])
            }
            return JSONText.object([
                ("container", JSONText.quoted(parts[0])), ("environment", JSONText.quoted(parts[1])),
                ("zones", JSONText.array(zones)),
            ])
        }
        return JSONText.object([("environments", JSONText.array(environments))])
    }

    /// `{"recordTypes": [{name, fields: [{name, type, options}]}], "cksl": "…"}` of one environment.
    static func schema(container: String, environment: String, store: ContainerStore) throws -> String {
        guard let environment = ContainerEnvironment(rawValue: environment) else {
            throw ServerError(.badRequest, "unknown environment '\(environment)'; use development or production")
        }
        let definition = try store.exclusively {
            try store.backend.read { try store.schema(of: container, environment: environment) }
        }
        let types = definition.recordTypes.map { type in
            let fields = type.fields.map { field in
                JSONText.object([
                    ("name", JSONText.quoted(field.name)), ("type", JSONText.quoted(field.typeDeclaration)),
                    ("options", JSONText.array(field.sortedOptions.map { JSONText.quoted($0.rawValue) })),
                ])
            }
            return JSONText.object([("name", JSONText.quoted(type.name)), ("fields", JSONText.array(fields))])
        }
        return JSONText.object([
            ("recordTypes", JSONText.array(types)), ("cksl", JSONText.quoted(definition.cksl)),
        ])
    }
}
