package import CloudSeedCore
import Crypto
import Foundation

/// The schemas and tables of a cloudseed PostgreSQL store (documented for people in `docs/STORE.md`).
///
/// Metadata lives in the schema `cloudseed`; each container environment's record tables live in a
/// schema of their own, named after it (`icloud_com_example_gallery_development`).
package enum PostgresLayout {
    /// The value of `format` in `cloudseed.meta` that this version writes and reads.
    package static let formatVersion = "2"

    /// The first key of every advisory lock cloudseed takes (`clou`), so they stay apart from other applications'.
    package static let lockClass: Int32 = 0x636C_6F75

    package static let metadataTables = """
        CREATE SCHEMA IF NOT EXISTS cloudseed;
        CREATE TABLE IF NOT EXISTS cloudseed.meta (
            key   text PRIMARY KEY,
            value text NOT NULL
        );
        CREATE TABLE IF NOT EXISTS cloudseed.environments (
            container   text NOT NULL,
            environment text NOT NULL,
            schema_name text NOT NULL UNIQUE,
            change_tag  bigint NOT NULL DEFAULT 0,
            PRIMARY KEY (container, environment)
        );
        CREATE TABLE IF NOT EXISTS cloudseed.zones (
            id          bigserial PRIMARY KEY,
            container   text NOT NULL,
            environment text NOT NULL,
            database    text NOT NULL,
            owner       text NOT NULL,
            zone        text NOT NULL,
            UNIQUE (container, environment, database, owner, zone)
        );
        CREATE TABLE IF NOT EXISTS cloudseed.record_types (
            container   text NOT NULL,
            environment text NOT NULL,
            record_type text NOT NULL,
            table_name  text NOT NULL,
            PRIMARY KEY (container, environment, record_type)
        );
        CREATE TABLE IF NOT EXISTS cloudseed.fields (
            container   text NOT NULL,
            environment text NOT NULL,
            record_type text NOT NULL,
            field       text NOT NULL,
            field_type  text NOT NULL,
            column_name text NOT NULL,
            PRIMARY KEY (container, environment, record_type, field)
        );
        CREATE TABLE IF NOT EXISTS cloudseed.schemas (
            container   text NOT NULL,
            environment text NOT NULL,
            ckdb        text NOT NULL,
            PRIMARY KEY (container, environment)
        );
        CREATE TABLE IF NOT EXISTS cloudseed.role_members (
            container   text NOT NULL,
            environment text NOT NULL,
            role        text NOT NULL,
            user_name   text NOT NULL,
            PRIMARY KEY (container, environment, role, user_name)
        );
        CREATE TABLE IF NOT EXISTS cloudseed.assets (
            checksum text PRIMARY KEY,
            size     bigint NOT NULL,
            content  bytea
        );
        CREATE TABLE IF NOT EXISTS cloudseed.deletions (
            zone        bigint NOT NULL REFERENCES cloudseed.zones (id),
            record_name text NOT NULL,
            record_type text NOT NULL,
            change_tag  bigint NOT NULL,
            PRIMARY KEY (zone, record_name)
        );
        """ + journalTable + zoneDeletionsTable

    /// The zones deleted whole, for `changes/database`; made on first use in stores older than it.
    package static let zoneDeletionsTable = """
        CREATE TABLE IF NOT EXISTS cloudseed.zone_deletions (
            container   text NOT NULL,
            environment text NOT NULL,
            database    text NOT NULL,
            owner       text NOT NULL,
            zone        text NOT NULL,
            change_tag  bigint NOT NULL,
            PRIMARY KEY (container, environment, database, owner, zone)
        );
        """

    /// What `push` and `pull` note per remote database; made on first use in stores older than it.
    package static let journalTable = """
        CREATE TABLE IF NOT EXISTS cloudseed.journal (
            target text NOT NULL,
            key    text NOT NULL,
            value  text NOT NULL,
            PRIMARY KEY (target, key)
        );
        """

    /// The column a table's SEARCHABLE fields are indexed in, kept by PostgreSQL itself.
    package static let searchColumn = "___search"

    /// A record table. Its primary key starts with the record name rather than the zone, which is
    /// mostly the same: building the key, PostgreSQL's sort then tells most names apart by their
    /// first bytes, which is faster.
    package static func createRecordTable(_ table: String, in schema: String) -> String {
        """
        CREATE TABLE \(SQLIdentifier.quoted(schema)).\(SQLIdentifier.quoted(table)) (
            "___zone"       bigint NOT NULL REFERENCES cloudseed.zones (id),
            "___recordID"   text COLLATE "C" NOT NULL,
            "___createTime" timestamptz NOT NULL,
            "___createdBy"  text NOT NULL,
            "___modTime"    timestamptz NOT NULL,
            "___modifiedBy" text NOT NULL,
            "___etag"       text COLLATE "C" NOT NULL,
            PRIMARY KEY ("___zone", "___recordID")
        )
        """
    }

    /// The schema of a container environment: its names in lower case, other characters as `_`,
    /// as `icloud_com_example_gallery_development`.
    package static func schemaName(container: String, environment: ContainerEnvironment) -> String {
        let name = String(
            (container + "_" + environment.rawValue).lowercased().map {
                $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "_"
            })
        return identifier(name)
    }

    /// The `ALTER TABLE` that makes the columns a bulk insert's rows leave out default to the
    /// values they share (``PostgresPendingRows/SharedColumns``).
    package static func settingDefaults(of table: String, to shared: PostgresPendingRows.SharedColumns) throws -> String
    {
        func timestamp(_ milliseconds: Int64) throws -> String {
            guard let text = Timestamp.format(milliseconds) else { throw PostgresValueCodec.outOfRange(milliseconds) }
            return literal(text) + "::timestamptz"
        }
        let values = [
            String(shared.zone), try timestamp(shared.createdTimestamp), literal(shared.createdUserRecordName),
            try timestamp(shared.modifiedTimestamp), literal(shared.modifiedUserRecordName),
        ]
        return "ALTER TABLE \(table) "
            + zip(sharedColumns, values).map { "ALTER COLUMN \(SQLIdentifier.quoted($0)) SET DEFAULT \($1)" }.joined(
                separator: ", ")
    }

    /// The `ALTER TABLE` clauses that drop what ``settingDefaults(of:to:)`` set.
    package static let droppingDefaults = sharedColumns.map { "ALTER COLUMN \(SQLIdentifier.quoted($0)) DROP DEFAULT" }

    /// The system columns a bulk insert's rows may leave to defaults (``PostgresPendingRows/SharedColumns``).
    private static let sharedColumns = RecordColumns.system.indices.filter(
        PostgresPendingRows.SharedColumns.systemColumnIndexes.contains
    )
    .map { RecordColumns.system[$0] }

    /// A name PostgreSQL keeps whole: names over its 63-byte limit are cut to 50 bytes and given
    /// the first 12 hex digits of their SHA-256, so two long names never meet.
    package static func identifier(_ name: String) -> String {
        guard name.utf8.count > 63 else { return name }
        var prefix = ""
        for character in name {
            guard prefix.utf8.count + character.utf8.count <= 50 else { break }
            prefix.append(character)
        }
        return prefix + "_" + SHA256.hexDigest(of: Data(name.utf8)).prefix(12)
    }

    /// The name of an index cloudseed keeps on `table`: `<table>__index__<column>` or `<table>__search`.
    /// A name over 63 bytes keeps the table's first 20 bytes and the kind, then a hash of the whole.
    package static func indexName(table: String, kind: String, column: String) -> String {
        let name = column.isEmpty ? "\(table)__\(kind)" : "\(table)__\(kind)__\(column)"
        guard name.utf8.count > 63 else { return name }
        return String(decoding: Array(table.utf8.prefix(20)), as: UTF8.self) + "__\(kind)__"
            + SHA256.hexDigest(of: Data(name.utf8)).prefix(16)
    }

    /// An SQL string literal, for the statements that take no parameters (comments).
    package static func literal(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "''") + "'" }

    /// `schema.table`, both quoted.
    package static func qualified(_ schema: String, _ table: String) -> String {
        SQLIdentifier.quoted(schema) + "." + SQLIdentifier.quoted(table)
    }
}
