package import CloudSeedCore
package import CloudSeedReaders
import Foundation

/// Reads a CloudKit Web Services record dictionary, as ``CloudKitJSON/record(_:)`` writes it, back
/// into the exact ``CloudRecord``: every field with its type, the system fields and the zone.
///
/// Strict where a backup needs it to be: each field names its `type`, every key is known, values
/// have the kinds their types need. Errors name the file, line and column of the value at fault.
package enum CloudKitRecordDecoding {
    /// The record of one dictionary.
    package static func record(from node: DocumentNode) throws -> CloudRecord {
        try record(from: node, lenient: false)
    }

    /// A record a server answered (`records/changes`, `records/query`): as strict about values,
    /// but keys cloudseed does not keep (`deviceID`, `downloadURL`, `shortGUID`) are let go by.
    package static func serverRecord(from json: WebServicesJSON) throws -> CloudRecord {
        try record(from: json.node, lenient: true)
    }

    private static func record(from node: DocumentNode, lenient: Bool) throws -> CloudRecord {
        let record = try StrictObject(
            node, "the record",
            required: ["recordName", "recordType", "recordChangeTag", "fields", "created", "modified", "zoneID"],
            lenient: lenient)
        let created = try record.object("created", required: ["timestamp", "userRecordName"])
        let modified = try record.object("modified", required: ["timestamp", "userRecordName"])
        let zone = try record.object("zoneID", required: ["zoneName", "ownerRecordName"])
        let system = SystemFields(
            createdTimestamp: try created.integer("timestamp"),
            createdUserRecordName: try created.string("userRecordName"),
            modifiedTimestamp: try modified.integer("timestamp"),
            modifiedUserRecordName: try modified.string("userRecordName"),
            changeTag: try record.string("recordChangeTag"))
        let zoneID = RecordZoneID(zoneName: try zone.string("zoneName"), ownerName: try zone.string("ownerRecordName"))
        guard let fieldMembers = record["fields"]?.members else {
            throw StrictObject.mismatch("fields", "an object", record["fields"]!)
        }
        var fields: [String: RecordValue] = [:]
        for (name, fieldNode) in fieldMembers {
            fields[name] = try field(fieldNode, named: name, lenient: lenient)
        }
        return CloudRecord(
            recordType: try record.string("recordType"),
            recordID: RecordID(recordName: try record.string("recordName"), zoneID: zoneID),
            fields: fields, system: system)
    }

    /// A field dictionary: `{"value": ..., "type": "STRING_LIST"}`.
    private static func field(_ node: DocumentNode, named name: String, lenient: Bool) throws -> RecordValue {
        let field = try StrictObject(node, "field '\(name)'", required: ["value", "type"], lenient: lenient)
        let typeName = try field.string("type")
        guard let type = FieldType(name: typeName) else {
            throw StrictObject.error(
                "field '\(name)' has the unknown type \"\(typeName)\"", at: field["type"]!.position)
        }
        return try value(field["value"]!, as: type, in: "field '\(name)'", lenient: lenient)
    }

    /// The `value` of a field dictionary of `type`, as ``CloudKitJSON/value(_:)`` writes it.
    package static func value(_ node: DocumentNode, as type: FieldType) throws -> RecordValue {
        try value(node, as: type, in: "value", lenient: false)
    }

    private static func value(_ node: DocumentNode, as type: FieldType, in what: String, lenient: Bool) throws
        -> RecordValue
    {
        switch type {
        case .string: return .string(try StrictObject.string(node, what))
        case .int64: return .int64(try StrictObject.integer(node, what))
        case .double: return .double(try StrictObject.number(node, what))
        case .timestamp: return .timestamp(try StrictObject.integer(node, what))
        case .bytes:
            guard let data = Data(base64Encoded: try StrictObject.string(node, what)) else {
                throw StrictObject.error("\(what) is not Base64", at: node.position)
            }
            return .bytes(data)
        case .location: return .location(try location(node, in: what, lenient: lenient))
        case .reference:
            let reference = try StrictObject(
                node, what, required: ["recordName"], optional: ["zoneID", "action"], lenient: lenient)
            let actionName =
                try reference["action"].map { try StrictObject.string($0, "action") } ?? ReferenceAction.none.rawValue
            guard let action = ReferenceAction(rawValue: actionName) else {
                throw StrictObject.error(
                    "\(what) has the unknown action \"\(actionName)\"", at: reference["action"]!.position)
            }
            let zoneName = try reference["zoneID"].map {
                try StrictObject(
                    $0, "\(what)'s zoneID", required: ["zoneName"], optional: ["ownerRecordName"], lenient: lenient
                ).string(
                    "zoneName")
            }
            return .reference(
                Reference(recordName: try reference.string("recordName"), action: action, zoneName: zoneName))
        case .asset:
            let asset = try StrictObject(node, what, required: ["fileChecksum", "size"], lenient: lenient)
            return .asset(
                AssetReference(fileChecksum: try asset.string("fileChecksum"), size: try asset.integer("size")))
        case .list(let element):
            guard let items = node.items else { throw StrictObject.mismatch(what, "an array", node) }
            return .list(
                element,
                try items.enumerated().map { index, item in
                    try value(item, as: element, in: "element \(index + 1) of \(what)", lenient: lenient)
                })
        }
    }

    private static func location(_ node: DocumentNode, in what: String, lenient: Bool) throws -> Location {
        let measurements = ["altitude", "horizontalAccuracy", "verticalAccuracy", "course", "speed"]
        let object = try StrictObject(
            node, what, required: ["latitude", "longitude"], optional: measurements + ["timestamp"], lenient: lenient)
        func measurement(_ key: String) throws -> Double? {
            try object[key].map { try StrictObject.number($0, key) }
        }
        return Location(
            latitude: try StrictObject.number(object["latitude"]!, "latitude"),
            longitude: try StrictObject.number(object["longitude"]!, "longitude"),
            altitude: try measurement("altitude"), horizontalAccuracy: try measurement("horizontalAccuracy"),
            verticalAccuracy: try measurement("verticalAccuracy"), course: try measurement("course"),
            speed: try measurement("speed"),
            timestamp: try object["timestamp"].map { try StrictObject.integer($0, "timestamp") })
    }
}
