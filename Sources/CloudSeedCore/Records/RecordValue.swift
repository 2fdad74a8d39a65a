public import Foundation

/// A location value: coordinates in degrees plus CloudKit's optional measurements.
public struct Location: Hashable, Sendable {
    public var latitude: Double
    public var longitude: Double
    public var altitude: Double?
    public var horizontalAccuracy: Double?
    public var verticalAccuracy: Double?
    public var course: Double?
    public var speed: Double?
    /// When the location was determined, in milliseconds since 1970.
    public var timestamp: Int64?

    public init(
        latitude: Double, longitude: Double, altitude: Double? = nil, horizontalAccuracy: Double? = nil,
        verticalAccuracy: Double? = nil, course: Double? = nil, speed: Double? = nil, timestamp: Int64? = nil
    ) {
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
        self.horizontalAccuracy = horizontalAccuracy
        self.verticalAccuracy = verticalAccuracy
        self.course = course
        self.speed = speed
        self.timestamp = timestamp
    }

    /// Whether latitude is within ±90 and longitude within ±180 degrees.
    public var isInRange: Bool {
        (-90...90).contains(latitude) && (-180...180).contains(longitude)
    }

    /// Whether the location is a latitude and longitude alone: no altitude, accuracy, course, speed or timestamp.
    public var hasCoordinatesOnly: Bool {
        altitude == nil && horizontalAccuracy == nil && verticalAccuracy == nil && course == nil && speed == nil
            && timestamp == nil
    }
}

/// What a reference does when its target is deleted.
public enum ReferenceAction: String, Hashable, Sendable, CaseIterable {
    case none = "NONE"
    case deleteSelf = "DELETE_SELF"
    case validate = "VALIDATE"
}

/// A reference to another record, pointing from child to parent.
public struct Reference: Hashable, Sendable {
    public var recordName: String
    public var action: ReferenceAction
    /// The zone of the record pointed to, where it is not the referring record's own (CloudKit's
    /// `zoneID` in a reference dictionary).
    public var zoneName: String?

    public init(recordName: String, action: ReferenceAction = .none, zoneName: String? = nil) {
        self.recordName = recordName
        self.action = action
        self.zoneName = zoneName
    }
}

/// An asset: a file kept beside the record, identified by the SHA-256 of its content.
public struct AssetReference: Hashable, Sendable {
    /// Lower-case hexadecimal SHA-256 of the file, or CloudKit's checksum for assets imported as metadata.
    public var fileChecksum: String
    public var size: Int64

    public init(fileChecksum: String, size: Int64) {
        self.fileChecksum = fileChecksum
        self.size = size
    }
}

/// A typed field value of a record.
public enum RecordValue: Hashable, Sendable {
    case string(String)
    case int64(Int64)
    case double(Double)
    case bytes(Data)
    /// Milliseconds since 1970-01-01T00:00:00Z.
    case timestamp(Int64)
    indirect case location(Location)
    case reference(Reference)
    case asset(AssetReference)
    case list(FieldType, [RecordValue])

    /// The field type this value has.
    public var fieldType: FieldType {
        switch self {
        case .string: .string
        case .int64: .int64
        case .double: .double
        case .bytes: .bytes
        case .timestamp: .timestamp
        case .location: .location
        case .reference: .reference
        case .asset: .asset
        case .list(let element, _): .list(element)
        }
    }

    /// An approximation of the bytes this value takes in a record, assets excluded (they do not count).
    public var encodedSize: Int {
        switch self {
        case .string(let text): text.utf8.count
        case .int64, .double, .timestamp: 8
        case .bytes(let data): data.count
        case .location: 64
        case .reference(let reference): reference.recordName.utf8.count + 8
        case .asset: 0
        case .list(_, let values): values.reduce(0) { $0 + $1.encodedSize }
        }
    }
}
