/// The tables of a cloudseed SQLite store (documented for people in `docs/STORE.md`).
package enum SQLiteLayout {
    /// The value of `format` in `_cloudseed_meta` that this version writes and reads.
    package static let formatVersion = "1"

    package static let metadataTables = """
        CREATE TABLE IF NOT EXISTS _cloudseed_meta (
            key   TEXT PRIMARY KEY,
            value TEXT NOT NULL
        );
        CREATE TABLE IF NOT EXISTS _cloudseed_zones (
            id          INTEGER PRIMARY KEY,
            container   TEXT NOT NULL,
            environment TEXT NOT NULL,
            database    TEXT NOT NULL,
            owner       TEXT NOT NULL,
            zone        TEXT NOT NULL,
            UNIQUE (container, environment, database, owner, zone)
        );
        CREATE TABLE IF NOT EXISTS _cloudseed_record_types (
            container   TEXT NOT NULL,
            environment TEXT NOT NULL,
            record_type TEXT NOT NULL,
            table_name  TEXT NOT NULL,
            PRIMARY KEY (container, environment, record_type)
        );
        CREATE TABLE IF NOT EXISTS _cloudseed_fields (
            container   TEXT NOT NULL,
            environment TEXT NOT NULL,
            record_type TEXT NOT NULL,
            field       TEXT NOT NULL,
            field_type  TEXT NOT NULL,
            column_name TEXT NOT NULL,
            PRIMARY KEY (container, environment, record_type, field)
        );
        CREATE TABLE IF NOT EXISTS _cloudseed_schemas (
            container   TEXT NOT NULL,
            environment TEXT NOT NULL,
            ckdb        TEXT NOT NULL,
            PRIMARY KEY (container, environment)
        );
        CREATE TABLE IF NOT EXISTS _cloudseed_role_members (
            container   TEXT NOT NULL,
            environment TEXT NOT NULL,
            role        TEXT NOT NULL,
            user        TEXT NOT NULL,
            PRIMARY KEY (container, environment, role, user)
        );
        CREATE TABLE IF NOT EXISTS _cloudseed_assets (
            checksum TEXT PRIMARY KEY,
            size     INTEGER NOT NULL,
            content  BLOB
        );
        CREATE TABLE IF NOT EXISTS _cloudseed_deletions (
            zone        INTEGER NOT NULL REFERENCES _cloudseed_zones (id),
            record_name TEXT NOT NULL,
            record_type TEXT NOT NULL,
            change_tag  INTEGER NOT NULL,
            PRIMARY KEY (zone, record_name)
        );
        CREATE TABLE IF NOT EXISTS _cloudseed_zone_deletions (
            container   TEXT NOT NULL,
            environment TEXT NOT NULL,
            database    TEXT NOT NULL,
            owner       TEXT NOT NULL,
            zone        TEXT NOT NULL,
            change_tag  INTEGER NOT NULL,
            PRIMARY KEY (container, environment, database, owner, zone)
        );
        CREATE TABLE IF NOT EXISTS _cloudseed_journal (
            target TEXT NOT NULL,
            key    TEXT NOT NULL,
            value  TEXT NOT NULL,
            PRIMARY KEY (target, key)
        );
        """

    /// A record table and its name index. Stores written before the name index had its own name
    /// made the zone and record name the table's primary key, which works alike but cannot be
    /// dropped while a bulk insert runs.
    package static func createRecordTable(_ table: String) -> String {
        """
        CREATE TABLE \(SQLIdentifier.quoted(table)) (
            "___zone"       INTEGER NOT NULL REFERENCES _cloudseed_zones (id),
            "___recordID"   TEXT NOT NULL,
            "___createTime" TEXT NOT NULL,
            "___createdBy"  TEXT NOT NULL,
            "___modTime"    TEXT NOT NULL,
            "___modifiedBy" TEXT NOT NULL,
            "___etag"       TEXT NOT NULL
        );
        \(createNameIndex(table))
        """
    }

    /// The unique index on a record table's zone and record name: what finds a record by name and
    /// keeps names unique in a zone. The zone comes first, so that a zone's names are one range of
    /// the index: a run writing into one zone changes no page of another's, and a zone is read by
    /// name without passing over the others' names.
    package static func createNameIndex(_ table: String) -> String {
        "CREATE UNIQUE INDEX \(SQLIdentifier.quoted(nameIndex(of: table))) ON \(SQLIdentifier.quoted(table)) (\"___zone\", \"___recordID\")"
    }

    /// The index that reads a record table's changes a page at a time (``ZoneChanges``): by zone
    /// and change tag, a counter in base 36 that orders as a number by its length first. Made
    /// where a zone's changes are first read, not with the table, which imports then keep up.
    package static func createChangeIndex(_ table: String) -> String {
        "CREATE INDEX IF NOT EXISTS \(SQLIdentifier.quoted(changeIndex(of: table))) ON \(SQLIdentifier.quoted(table)) (\"___zone\", length(\"___etag\"), \"___etag\")"
    }

    package static func changeIndex(of table: String) -> String {
        "___changes_" + table
    }

    /// The name of a record table's name index; it starts with `_`, which no record type does.
    package static func nameIndex(of table: String) -> String {
        "___names_" + table
    }

    /// The table for a record type: its own name, unless SQLite reserves it (`sqlite_…`).
    package static func tableName(for recordType: String) -> String {
        recordType.lowercased().hasPrefix("sqlite_") ? "cloudseed_" + recordType : recordType
    }

}
