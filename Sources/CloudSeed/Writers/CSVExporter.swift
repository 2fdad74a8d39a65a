import Foundation

/// Writes records as CSV, one file per record type (`Artwork.csv`), that `import` reads back to the
/// same records. The header names each field with its type (`price:DOUBLE`, `tags:STRING_LIST`), so
/// no type has to be guessed again; cells hold:
///
/// | type | cell |
/// | --- | --- |
/// | STRING, INT64, DOUBLE | the value (`1250.5`, doubles always with a fraction or exponent) |
/// | TIMESTAMP | ISO 8601 UTC with milliseconds |
/// | BYTES | Base64 |
/// | REFERENCE | the record name; JSON `{"recordName":…,"action":…}` when the action is not NONE |
/// | LOCATION, ASSETID, lists | CloudKit JSON: `{"latitude":…,"longitude":…}`, `["oil","coast"]` |
///
/// An unset field is an empty cell; an empty string is `""`.
public final class CSVExporter {
    private let folder: URL?
    private let schema: Schema
    private var files: [String: FileHandle] = [:]
    private var headers: [String: [String]] = [:]
    private let standardOutput: (String) -> Void

    /// Writes into `folder` (one file per type), or, without one, everything to `standardOutput`.
    public init(folder: String?, schema: Schema, standardOutput: @escaping (String) -> Void) throws {
        self.folder = folder.map { URL(fileURLWithPath: $0) }
        self.schema = schema
        self.standardOutput = standardOutput
        if let folder {
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            } catch {
                throw CloudSeedError("cannot create the export folder; check the path", at: SourcePosition(file: folder))
            }
        }
    }

    public func append(_ record: CloudRecord) throws {
        if headers[record.recordType] == nil {
            let fields = schema.recordTypes[record.recordType]?.sortedFieldNames ?? record.sortedFieldNames
            headers[record.recordType] = fields
            let header = (["recordName"] + fields.map { "\($0):\(schema.fieldType($0, in: record.recordType)?.wireName ?? "STRING")" })
            try write(Self.line(header), for: record.recordType)
        }
        let cells = [record.recordID.recordName] + headers[record.recordType]!.map { name in
            record.fields[name].map(Self.cell) ?? ""
        }
        try write(Self.line(cells, quoteEmpty: record.fields.filter { $0.value == .string("") }.map(\.key), header: headers[record.recordType]!), for: record.recordType)
    }

    public func finish() {
        for handle in files.values { try? handle.close() }
    }

    private func write(_ line: String, for recordType: String) throws {
        guard let folder else { return standardOutput(line) }
        if files[recordType] == nil {
            let path = folder.appendingPathComponent("\(recordType).csv").path
            guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path) else {
                throw CloudSeedError("cannot write the export file", at: SourcePosition(file: path))
            }
            files[recordType] = handle
        }
        files[recordType]!.write(Data(line.utf8))
    }

    static func cell(_ value: RecordValue) -> String {
        switch value {
        case .string(let text): text
        case .int64(let number): String(number)
        case .double(let number): JSONText.number(number)
        case .bytes(let data): data.base64EncodedString()
        case .timestamp(let milliseconds): Timestamp.format(milliseconds) ?? String(milliseconds)
        case .reference(let reference) where reference.action == .none && !reference.recordName.hasPrefix("{"): reference.recordName
        default: CloudKitJSON.value(value)
        }
    }

    /// An RFC 4180 line; `quoteEmpty` names fields set to the empty string, written `""` so they stay set.
    static func line(_ cells: [String], quoteEmpty: [String] = [], header: [String] = []) -> String {
        let emptyColumns = Set(quoteEmpty.compactMap { header.firstIndex(of: $0).map { $0 + 1 } })
        return cells.enumerated().map { index, text in
            if text.isEmpty { return emptyColumns.contains(index) ? "\"\"" : "" }
            guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) || text.first == " " || text.last == " " else { return text }
            return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        }.joined(separator: ",") + "\r\n"
    }
}
