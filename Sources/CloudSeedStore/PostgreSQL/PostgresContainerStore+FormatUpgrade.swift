/// A store of format 1 kept each LOCATION field in `jsonb`; format 2 keeps it in `double precision[]`
/// (``PostgresValueCodec/locationElements(_:)``). The first cloudseed of format 2 to open a store of
/// format 1 changes its columns, once, in one transaction: a cloudseed of format 1 then refuses the
/// store rather than misread it.
extension PostgresContainerStore {
    /// The format of the stores whose LOCATION columns are `jsonb`.
    package static let jsonLocationFormat = "1"

    /// Changes every LOCATION column of a store of format 1 from `jsonb` to `double precision[]`,
    /// its values converted in place, and sets the store's format to this version's.
    package static func upgradeJSONLocations(on connection: PostgresConnection) throws {
        try connection.transaction {
            // Two upgrades at once: the lock makes the second wait and then find the format changed.
            try connection.rows("SELECT pg_advisory_xact_lock(\(PostgresLayout.lockClass), 0)")
            guard try connection.value("SELECT value FROM cloudseed.meta WHERE key = 'format'") == jsonLocationFormat
            else { return }
            let columns = try connection.rows(
                """
                SELECT e.schema_name, r.table_name, f.column_name
                FROM cloudseed.fields f
                JOIN cloudseed.record_types r USING (container, environment, record_type)
                JOIN cloudseed.environments e USING (container, environment)
                JOIN pg_attribute a ON a.attrelid = to_regclass(format('%I.%I', e.schema_name, r.table_name)) AND a.attname = f.column_name
                WHERE f.field_type = 'LOCATION' AND a.atttypid = 'jsonb'::regtype AND NOT a.attisdropped
                ORDER BY 1, 2, 3
                """)
            for row in columns {
                guard let schema = row[0], let table = row[1], let column = row[2] else { continue }
                let quoted = SQLIdentifier.quoted(column)
                try connection.execute(
                    "ALTER TABLE \(PostgresLayout.qualified(schema, table)) ALTER COLUMN \(quoted) TYPE double precision[] USING \(locationArray(fromJSON: quoted))"
                )
            }
            try connection.rows(
                "UPDATE cloudseed.meta SET value = $1 WHERE key = 'format'", [PostgresLayout.formatVersion])
        }
    }

    /// SQL that turns a location's JSON in `column` into its array: its members in
    /// ``PostgresValueCodec/locationElements(_:)``'s order, up to the last it has.
    private static func locationArray(fromJSON column: String) -> String {
        let members = [
            "latitude", "longitude", "altitude", "horizontalAccuracy", "verticalAccuracy", "course", "speed",
            "timestamp",
        ]
        let elements = members.map { "(\(column) ->> '\($0)')::double precision" }.joined(separator: ", ")
        let lengths = members.indices.dropFirst(2).reversed().map { "WHEN \(column) ? '\(members[$0])' THEN \($0 + 1)" }
            .joined(separator: " ")
        return "CASE WHEN \(column) IS NULL THEN NULL ELSE (ARRAY[\(elements)])[1:CASE \(lengths) ELSE 2 END] END"
    }
}
