import Crypto
import Foundation

/// The record names of an app's objects: upper-case UUIDs, as Core Data gives them, derived from
/// the container, the object's root entity and the name the row gives it, so that the same seed
/// names its objects alike on every machine and a second import finds them.
enum CoreDataRecordNames {
    /// The record name of the object `name` names; a name that is an upper-case UUID already (a
    /// record Core Data or an export named) is kept.
    static func name(_ name: String, root: String, container: String) -> String {
        if isRecordName(name) { return name }
        var hash = SHA256()
        for part in [container, root, name] {
            hash.update(data: Data(part.utf8))
            hash.update(data: [0])
        }
        var bytes = Array(hash.finalize().prefix(16))
        // A name-based UUID (version 5's layout), so that it reads as one.
        bytes[6] = bytes[6] & 0x0f | 0x50
        bytes[8] = bytes[8] & 0x3f | 0x80
        let uuid = UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8], bytes[9],
                bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            ))
        return uuid.uuidString
    }

    /// Whether `name` is an upper-case UUID.
    static func isRecordName(_ name: String) -> Bool {
        name.utf8.count == 36 && UUID(uuidString: name)?.uuidString == name
    }
}
