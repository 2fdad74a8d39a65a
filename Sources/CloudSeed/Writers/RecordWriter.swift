import CloudKitWire

/// The layouts `cloudseed export` writes.
public enum ExportFormat: String, CaseIterable, Sendable {
    /// One record dictionary per line.
    case jsonl
    /// `{"records": [...]}`, one record per line inside the array, as records/query answers.
    case cloudkitJSON = "cloudkit-json"
    /// An XML property list of the same dictionaries, with `<date>` and `<data>` values.
    case plist
    /// CSV, one file per record type, with typed headers (`price:DOUBLE`).
    case csv
}

/// Streams records to an output in an export format.
public struct RecordWriter {
    public var format: ExportFormat
    private var count = 0
    private let write: (String) -> Void

    public init(format: ExportFormat, write: @escaping (String) -> Void) {
        self.format = format
        self.write = write
    }

    public mutating func begin() {
        switch format {
        case .cloudkitJSON: write("{\"records\":[")
        case .plist: write(PropertyListWriter.header)
        case .jsonl, .csv: break
        }
    }

    public mutating func append(_ record: CloudRecord) {
        switch format {
        case .jsonl: write(CloudKitJSON.record(record) + "\n")
        case .cloudkitJSON: write((count == 0 ? "\n" : ",\n") + CloudKitJSON.record(record))
        case .plist: write(PropertyListWriter.record(record))
        case .csv: preconditionFailure("CSV goes through CSVExporter")
        }
        count += 1
    }

    public mutating func end() {
        switch format {
        case .cloudkitJSON: write(count == 0 ? "]}\n" : "\n]}\n")
        case .plist: write(PropertyListWriter.footer)
        case .jsonl, .csv: break
        }
    }
}
