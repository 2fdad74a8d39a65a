import Foundation

/// Converts a plain source value to a field's type, or explains in CloudKit's words why it cannot.
struct ValueConverter {
    /// Loads the file an ASSET value names, relative to the source's folder; `nil` for a file that
    /// does not exist and is left out (`--allow-dangling`).
    var loadAsset: (_ path: String, _ position: SourcePosition) throws -> AssetReference?
    /// Maps a referenced record's name the way record names are mapped.
    var recordName: (_ text: String) -> String
    /// The bytes of the file a path names, by the asset rules; `nil` where no such file exists.
    var readFile: (_ path: String, _ position: SourcePosition) throws -> Data? = { _, _ in nil }

    /// A value left out, its field left unset (an item of a list left out of it): an asset file
    /// that does not exist, with `--allow-dangling`.
    struct LeftOut: Error {}

    /// Why a value does not fit its field: CloudKit's type message needs the value's own type.
    struct Mismatch: Error {
        var valueType: String
        var detail: OptionText?
    }

    /// ``convert(_:to:reading:at:)`` to a planned field's type, its dates read as its plan says.
    func convert(_ value: PlainValue, to field: PlannedField, at position: SourcePosition) throws -> RecordValue {
        if let attribute = field.modelField?.attribute?.type {
            return try ModelValues.convert(value, attribute: attribute, field: field, converter: self, at: position)
        }
        return try convert(value, to: field.type, reading: field.dateReading, at: position)
    }

    /// The value as `type`; a TIMESTAMP's texts read by `reading` (``DateReading``), the default
    /// way where it is `nil`.
    func convert(_ value: PlainValue, to type: FieldType, reading: DateReading? = nil, at position: SourcePosition)
        throws -> RecordValue
    {
        switch type {
        case .string: return .string(try text(of: value))
        case .int64:
            switch value {
            case .integer(let number): return .int64(number)
            case .bool(let flag): return .int64(flag ? 1 : 0)
            case .text(let text), .string(let text):
                if let flag = BooleanText.value(text) { return .int64(flag ? 1 : 0) }
                if let number = NumberText.integer(text) { return .int64(number) }
            default: break
            }
        case .double:
            switch value {
            case .integer(let number): return .double(Double(number))
            case .real(let number): return .double(number)
            case .text(let text), .string(let text):
                if let number = NumberText.integer(text) { return .double(Double(number)) }
                if let number = NumberText.real(text) { return .double(number) }
            default: break
            }
        case .timestamp:
            switch value {
            case .date(let milliseconds): return .timestamp(try checkedTimestamp(milliseconds))
            case .integer(let milliseconds): return .timestamp(try checkedTimestamp(milliseconds))
            case .text(let text), .string(let text):
                if let milliseconds = DateReading.milliseconds(of: text, reading: reading) {
                    return .timestamp(try checkedTimestamp(milliseconds))
                }
                if let milliseconds = NumberText.integer(text) { return .timestamp(try checkedTimestamp(milliseconds)) }
                if WrittenDate.numericForms(text) != nil {
                    guard let pattern = reading?.pattern else {
                        throw Mismatch(
                            valueType: "STRING",
                            detail:
                                "nothing tells whether '\(text)' is month/day/year or day/month/year; say which with \(option: .dateFormat("MM/dd/yyyy")) or dd/MM/yyyy"
                        )
                    }
                    throw Mismatch(valueType: "STRING", detail: "'\(text)' is no date written \(pattern)")
                }
            default: break
            }
        case .bytes:
            switch value {
            case .data(let data): return .bytes(data)
            case .text(let text), .string(let text):
                if let data = Data(base64Encoded: text) { return .bytes(data) }
                throw Mismatch(valueType: "STRING", detail: "BYTES values in text must be Base64")
            default: break
            }
        case .location:
            if case .dictionary(let entries) = value { return .location(try location(from: entries)) }
        case .reference:
            switch value {
            case .text(let text), .string(let text): return .reference(Reference(recordName: recordName(text)))
            case .integer(let number): return .reference(Reference(recordName: String(number)))
            case .dictionary(let entries): return .reference(try reference(from: entries))
            default: break
            }
        case .asset:
            switch value {
            case .dictionary(let entries): return .asset(try assetMetadata(from: entries))
            case .text(let path), .string(let path):
                guard let asset = try loadAsset(path, position) else { throw LeftOut() }
                return .asset(asset)
            default: break
            }
        case .list(let element):
            // A text that holds a JSON array, `["oil","portrait"]`, as a CSV cell does.
            if case .text(let text) = value, let items = JSONListText.items(text) {
                return try convert(.array(items), to: type, reading: reading, at: position)
            }
            if case .array(let items) = value {
                // Null items are left out; converted into one array, not filtered into another first.
                var converted: [RecordValue] = []
                converted.reserveCapacity(items.count)
                for item in items where item != .null {
                    do {
                        converted.append(try convert(item, to: element, reading: reading, at: position))
                    } catch is LeftOut {
                        continue
                    }
                }
                return .list(element, converted)
            }
        }
        throw Mismatch(valueType: Self.valueType(of: value), detail: nil)
    }

    /// ``convert(_:to:at:)`` of a text given as UTF-8 bytes, for the types a text's bytes tell
    /// alone: an INT64 (a boolean's 1 or 0 where it starts with `t` or `f`, else a number), DOUBLE
    /// or TIMESTAMP the text is, or a LIST of those or of STRING a JSON array makes; `nil` for any
    /// other, converted as text (which words the errors).
    ///
    /// With the value comes the kind ``InferredKind/classify(utf8:)`` gives the same bytes, where
    /// converting them told it (a number read as an integer is `integer`, a boolean `boolean`, a
    /// real `real`, a date that starts `dddd-` `timestamp`, a list of texts `stringList`): the
    /// survey then does not read the bytes again, as reading a date twice was costly.
    func convert(utf8 bytes: UnsafeBufferPointer<UInt8>, to type: FieldType) -> (
        value: RecordValue, kind: InferredKind.TextKind?
    )? {
        switch type {
        case .int64:
            guard let first = bytes.first else { return nil }
            if first | 0x20 == UInt8(ascii: "t") || first | 0x20 == UInt8(ascii: "f") {
                return BooleanText.value(utf8: bytes).map { (.int64($0 ? 1 : 0), .boolean) }
            }
            guard first >= 48 && first <= 57 || first == UInt8(ascii: "-") else { return nil }
            return NumberText.integer(bytes).map { (.int64($0), .integer) }
        case .double:
            if let number = NumberText.integer(bytes) { return (.double(Double(number)), .integer) }
            return NumberText.real(bytes).map { (.double($0), .real) }
        case .timestamp:
            if let milliseconds = Timestamp.parse(utf8: bytes) {
                guard Timestamp.range.contains(milliseconds) else { return nil }
                return (.timestamp(milliseconds), InferredKind.startsAsDate(bytes) ? .timestamp : nil)
            }
            if let milliseconds = NumberText.integer(bytes) {
                guard Timestamp.range.contains(milliseconds) else { return nil }
                return (.timestamp(milliseconds), .integer)
            }
            // A date with a month's name; one in numbers needs its field's order, and goes the general way.
            guard let local = WrittenDate.named(bytes),
                case let milliseconds = local.milliseconds - (local.offset ?? 0),
                Timestamp.range.contains(milliseconds)
            else { return nil }
            return (.timestamp(milliseconds), nil)
        case .list(let element) where Self.listElementsByBytes.contains(element):
            // A cell of a JSON array, read from its bytes: the general way makes a text of it first.
            // A list of texts is told `stringList`: its column's survey then reads it no more.
            guard let items = JSONListText.items(bytes) else { return nil }
            var converted: [RecordValue] = []
            converted.reserveCapacity(items.count)
            var allText = true
            for item in items where item != .null {
                guard let value = try? convert(item, to: element, at: Self.nowhere) else { return nil }
                converted.append(value)
                if allText { allText = InferredKind(of: item)?.isString ?? false }
            }
            return (.list(element, converted), allText && !converted.isEmpty ? .stringList : nil)
        default:
            return nil
        }
    }

    /// The list elements ``convert(utf8:to:)`` converts from a cell's bytes: those converted
    /// without the store, the files or the plan.
    private static let listElementsByBytes: [FieldType] = [.string, .int64, .double, .timestamp]
    /// The position of values whose errors are not reported, but worded by the general way.
    private static let nowhere = SourcePosition(file: "")

    /// The LOCATION a latitude and a longitude given as UTF-8 bytes make (``convert(_:to:at:)`` of
    /// ``LocationKeys/location(latitude:longitude:)``), where both are numbers within range; `nil`
    /// otherwise, converted as texts.
    func location(latitude: UnsafeBufferPointer<UInt8>, longitude: UnsafeBufferPointer<UInt8>) -> RecordValue? {
        guard let latitude = NumberText.real(latitude) ?? NumberText.integer(latitude).map(Double.init),
            (-90...90).contains(latitude),
            let longitude = NumberText.real(longitude) ?? NumberText.integer(longitude).map(Double.init),
            (-180...180).contains(longitude)
        else { return nil }
        return .location(Location(latitude: latitude, longitude: longitude))
    }

    /// The CloudKit type name of a source value, for CloudKit's mismatch message.
    static func valueType(of value: PlainValue) -> String {
        switch value {
        case .text(let text): InferredKind.classify(text: text).fieldType.wireName
        case .string: "STRING"
        case .integer, .bool: "INT64"
        case .real: "DOUBLE"
        case .date: "TIMESTAMP"
        case .data: "BYTES"
        case .dictionary(let entries): LocationKeys.isLocation(entries.lazy.map(\.key)) ? "LOCATION" : "STRING"
        case .array(let items): InferredKind(of: .array(items))?.fieldType.wireName ?? "LIST"
        case .null: "NULL"
        }
    }

    private func text(of value: PlainValue) throws -> String {
        switch value {
        case .text(let text), .string(let text): text
        case .integer(let number): String(number)
        case .real(let number): JSONText.number(number)
        case .bool(let flag): flag ? "true" : "false"
        case .date(let milliseconds): try Timestamp.format(checkedTimestamp(milliseconds)) ?? ""
        case .data(let data): data.base64EncodedString()
        case .array, .dictionary, .null: value.jsonText
        }
    }

    private func checkedTimestamp(_ milliseconds: Int64) throws -> Int64 {
        guard Timestamp.range.contains(milliseconds) else {
            throw Mismatch(valueType: "TIMESTAMP", detail: "the date is outside the years 1 to 9999")
        }
        return milliseconds
    }

    private func number<Names: Sequence<String>>(_ entries: [PlainEntry], _ keys: Names) throws -> Double? {
        guard let entry = entries.first(where: { CaseInsensitiveNames.matchesAny($0.key, keys) }) else { return nil }
        return try number(entry)
    }

    private func number(_ entry: PlainEntry) throws -> Double {
        switch entry.value {
        case .integer(let number): return Double(number)
        case .real(let number): return number
        case .text(let text), .string(let text):
            if let number = NumberText.real(text) ?? NumberText.integer(text).map(Double.init) { return number }
        default: break
        }
        throw Mismatch(valueType: "LOCATION", detail: "'\(entry.key)' must be a number")
    }

    private func location(from entries: [PlainEntry]) throws -> Location {
        let latitude: Double
        let longitude: Double
        // Most locations are a latitude and a longitude alone, as columns side by side make them:
        // those are not searched for.
        if LocationKeys.areMade(entries.lazy.map(\.key)) {
            (latitude, longitude) = (try number(entries[0]), try number(entries[1]))
        } else {
            guard let found = try number(entries, LocationKeys.latitude),
                let other = try number(entries, LocationKeys.longitude)
            else { throw Mismatch(valueType: "STRING", detail: "a LOCATION needs latitude and longitude") }
            (latitude, longitude) = (found, other)
        }
        var location = Location(latitude: latitude, longitude: longitude)
        if entries.count > 2 {
            location.altitude = try number(entries, CollectionOfOne("altitude"))
            location.horizontalAccuracy = try number(entries, CollectionOfOne("horizontalaccuracy"))
            location.verticalAccuracy = try number(entries, CollectionOfOne("verticalaccuracy"))
            location.course = try number(entries, CollectionOfOne("course"))
            location.speed = try number(entries, CollectionOfOne("speed"))
            location.timestamp = try number(entries, CollectionOfOne("timestamp")).map { Int64($0) }
        }
        guard (-90...90).contains(latitude) else {
            throw Mismatch(valueType: "LOCATION", detail: "latitude \(latitude) is outside -90 to 90")
        }
        guard (-180...180).contains(longitude) else {
            throw Mismatch(valueType: "LOCATION", detail: "longitude \(longitude) is outside -180 to 180")
        }
        return location
    }

    private func reference(from entries: [PlainEntry]) throws -> Reference {
        guard case .string(let name)? = entries.first(where: { $0.key == "recordName" })?.value else {
            throw Mismatch(valueType: "STRING", detail: "a REFERENCE dictionary needs a recordName")
        }
        var reference = Reference(recordName: name)
        if case .dictionary(let zone)? = entries.first(where: { $0.key == "zoneID" })?.value {
            guard case .string(let zoneName)? = zone.first(where: { $0.key == "zoneName" })?.value else {
                throw Mismatch(valueType: "REFERENCE", detail: "a reference's zoneID needs a zoneName")
            }
            reference.zoneName = zoneName
        }
        if case .string(let actionName)? = entries.first(where: { $0.key == "action" })?.value {
            guard let action = ReferenceAction(rawValue: actionName) else {
                throw Mismatch(valueType: "REFERENCE", detail: "the action must be NONE, DELETE_SELF or VALIDATE")
            }
            reference.action = action
        }
        return reference
    }

    private func assetMetadata(from entries: [PlainEntry]) throws -> AssetReference {
        guard case .string(let checksum)? = entries.first(where: { $0.key == "fileChecksum" })?.value,
            case .integer(let size)? = entries.first(where: { $0.key == "size" })?.value
        else { throw Mismatch(valueType: "STRING", detail: "an ASSET dictionary needs fileChecksum and size") }
        return AssetReference(fileChecksum: checksum, size: size)
    }
}

extension PlainValue {
    /// The value as JSON text, for nested data kept in a STRING field.
    var jsonText: String {
        switch self {
        case .text(let text), .string(let text): JSONText.quoted(text)
        case .integer(let number): String(number)
        case .real(let number): JSONText.number(number)
        case .bool(let flag): flag ? "true" : "false"
        case .date(let milliseconds): JSONText.quoted(Timestamp.format(milliseconds) ?? String(milliseconds))
        case .data(let data): JSONText.quoted(data.base64EncodedString())
        case .array(let items): JSONText.array(items.map(\.jsonText))
        case .dictionary(let entries): JSONText.object(entries.map { ($0.key, $0.value.jsonText) })
        case .null: "null"
        }
    }
}
