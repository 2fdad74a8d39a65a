package import CloudSeedCore

/// CloudKit Web Services' JSON dictionaries of the values a store keeps as JSON text and an
/// export writes: a reference and a location.
extension Reference {
    /// `recordName`, `zoneID` where it points into another zone, `action`.
    package var cloudKitJSON: String {
        var bytes: [UInt8] = []
        appendCloudKitJSON(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends ``cloudKitJSON`` to `bytes`.
    package func appendCloudKitJSON(to bytes: inout [UInt8]) {
        Self.appendCloudKitJSON(recordName: recordName.utf8, zoneName: zoneName, action: action, to: &bytes)
    }

    /// Appends the dictionary of a reference to the record named by `recordName`'s bytes: what a
    /// store writes from a column that keeps the name alone.
    package static func appendCloudKitJSON(
        recordName: some Collection<UInt8>, zoneName: String? = nil, action: ReferenceAction = .none,
        to bytes: inout [UInt8]
    ) {
        bytes += #"{"recordName":"#.utf8
        JSONText.appendQuoted(recordName, to: &bytes)
        if let zoneName {
            bytes += #","zoneID":"#.utf8
            RecordZoneID(zoneName: zoneName).appendCloudKitJSON(to: &bytes, owner: .never)
        }
        bytes += #","action":"#.utf8
        JSONText.appendQuoted(action.rawValue.utf8, to: &bytes)
        bytes.append(UInt8(ascii: "}"))
    }
}

extension Location {
    /// `latitude`, `longitude` and the measurements it has.
    package var cloudKitJSON: String {
        var bytes: [UInt8] = []
        appendCloudKitJSON(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends ``cloudKitJSON`` to `bytes`; a latitude and longitude alone without making strings of them.
    package func appendCloudKitJSON(to bytes: inout [UInt8]) {
        if hasCoordinatesOnly {
            bytes += #"{"latitude":"#.utf8
            JSONText.appendNumber(latitude, to: &bytes)
            bytes += #","longitude":"#.utf8
            JSONText.appendNumber(longitude, to: &bytes)
            bytes.append(UInt8(ascii: "}"))
            return
        }
        var members = [("latitude", JSONText.number(latitude)), ("longitude", JSONText.number(longitude))]
        let optional: [(String, Double?)] = [
            ("altitude", altitude), ("horizontalAccuracy", horizontalAccuracy),
            ("verticalAccuracy", verticalAccuracy), ("course", course), ("speed", speed),
        ]
        members += optional.compactMap { key, number in number.map { (key, JSONText.number($0)) } }
        if let timestamp { members.append(("timestamp", String(timestamp))) }
        bytes += JSONText.object(members).utf8
    }
}
