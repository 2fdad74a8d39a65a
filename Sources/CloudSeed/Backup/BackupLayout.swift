/// Where each file of a backup bundle lives, relative to the bundle's folder:
///
/// ```
/// manifest.json
/// schema/development.ckdb
/// records/development/private/_alice/Work/ToDoItem.jsonl
/// assets/9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08
/// ```
///
/// Owner, zone and record type names are used as they are when they hold only ASCII letters, digits,
/// `_` and `-`; any other byte is written `%XX` (and an empty name `%`), so that no name can leave its
/// folder, clash with another, or mean `.` or `..`.
package enum BackupLayout {
    /// The manifest, the one file the manifest does not list.
    package static let manifest = "manifest.json"

    /// The schema of an environment, in the CloudKit Schema Language.
    package static func schema(_ environment: ContainerEnvironment) -> String {
        "schema/\(environment.rawValue).ckdb"
    }

    /// The records of one type in one zone, as CloudKit JSON Lines.
    package static func records(
        _ environment: ContainerEnvironment, _ database: DatabaseScope, _ zoneID: RecordZoneID, recordType: String
    ) -> String {
        let folders = [
            environment.rawValue, database.rawValue, component(zoneID.ownerName), component(zoneID.zoneName),
        ]
        return "records/" + folders.joined(separator: "/") + "/" + component(recordType) + ".jsonl"
    }

    /// The content of an asset, named by its SHA-256.
    package static func asset(_ checksum: String) -> String {
        "assets/\(checksum)"
    }

    /// Whether `name` is a lower-case hexadecimal SHA-256, the only name an asset file may have.
    static func isSHA256(_ name: String) -> Bool {
        name.utf8.count == 64 && name.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    /// Whether `path` stays inside the bundle: relative, without empty, `.` or `..` components.
    static func staysInside(_ path: String) -> Bool {
        let components = path.split(separator: "/", omittingEmptySubsequences: false)
        return !path.isEmpty && !path.utf8.contains(0)
            && components.allSatisfy { !$0.isEmpty && $0 != "." && $0 != ".." }
    }

    /// `name` as one safe path component.
    static func component(_ name: String) -> String {
        if name.isEmpty { return "%" }
        var result = ""
        for byte in name.utf8 {
            let isPlain =
                (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
            if isPlain {
                result.unicodeScalars.append(UnicodeScalar(byte))
            } else {
                let hex = String(byte, radix: 16, uppercase: true)
                result += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return result
    }
}
