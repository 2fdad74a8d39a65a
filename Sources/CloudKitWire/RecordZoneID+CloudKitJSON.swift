package import CloudSeedCore

/// CloudKit Web Services' zoneID dictionary, `{"zoneName": …, "ownerRecordName": …}`: the one
/// place that writes it, for records, references, requests and answers alike.
extension RecordZoneID {
    /// Which zoneIDs name their owner.
    package enum OwnerInJSON: Sendable {
        /// Always, as CloudKit's answers and exports do.
        case always
        /// Where it is not the caller (``RecordZoneID/defaultOwnerName``), as requests do.
        case unlessCaller
        /// Never, as a reference into another zone does.
        case never
    }

    /// Appends the dictionary's bytes to `bytes`.
    package func appendCloudKitJSON(to bytes: inout [UInt8], owner: OwnerInJSON = .always) {
        bytes += #"{"zoneName":"#.utf8
        JSONText.appendQuoted(zoneName.utf8, to: &bytes)
        if owner == .always || (owner == .unlessCaller && ownerName != Self.defaultOwnerName) {
            bytes += #","ownerRecordName":"#.utf8
            JSONText.appendQuoted(ownerName.utf8, to: &bytes)
        }
        bytes.append(UInt8(ascii: "}"))
    }

    /// The dictionary's text.
    package func cloudKitJSON(owner: OwnerInJSON = .always) -> String {
        var bytes: [UInt8] = []
        appendCloudKitJSON(to: &bytes, owner: owner)
        return String(decoding: bytes, as: UTF8.self)
    }
}
