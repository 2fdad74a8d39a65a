package import CloudSeedCore

/// The type CloudKit gives a field value written without `"type"`, from the value's shape: a
/// dictionary with `recordName` is a REFERENCE, one with `fileChecksum`, `receipt` or
/// `downloadURL` an ASSETID, one with `latitude` and `longitude` a LOCATION, a list of one of
/// those the matching list; a string is a STRING. Numbers are left to inference (INT64 or DOUBLE).
package enum CloudKitValueShape {
    /// The type of a field's `value` node; `nil` where inference decides (numbers, booleans, nulls,
    /// empty lists, lists of numbers).
    package static func type(of value: DocumentNode, field: String) throws -> FieldType? {
        switch value {
        case .scalar(.string, _), .scalar(.text, _): return .string
        case .scalar: return nil
        case .object(let members, let position): return try dictionaryType(members.map(\.key), field, position)
        case .array(let items, _):
            var element: FieldType??
            for item in items {
                let itemType: FieldType?
                switch item {
                case .scalar(.null, _): continue
                case .scalar(.integer, _), .scalar(.real, _), .scalar(.bool, _): itemType = nil
                default: itemType = try type(of: item, field: field)
                }
                guard let first = element else {
                    element = .some(itemType)
                    continue
                }
                if itemType != first {
                    throw CloudSeedError(
                        .invalidValue,
                        "field '\(field)' of a CloudKit record holds a list whose items are not all of one type; give the field's \"type\" (such as STRING_LIST), or make the items alike",
                        at: item.position)
                }
            }
            guard let element, let element else { return nil }
            return .list(element)
        }
    }

    private static let assetKeys: Set<String> = ["fileChecksum", "receipt", "downloadURL", "downloadUrl"]

    private static func dictionaryType(_ keys: [String], _ field: String, _ position: SourcePosition) throws
        -> FieldType
    {
        if keys.contains("recordName") { return .reference }
        if keys.contains(where: assetKeys.contains) { return .asset }
        if keys.contains("latitude") && keys.contains("longitude") { return .location }
        throw CloudSeedError(
            .invalidValue,
            "field '\(field)' of a CloudKit record holds a dictionary that is none of CloudKit's values; write a REFERENCE {\"recordName\", \"action\"}, an ASSETID {\"fileChecksum\", \"size\", \"receipt\"} or a LOCATION {\"latitude\", \"longitude\"}, or give the field's \"type\"",
            at: position)
    }
}
