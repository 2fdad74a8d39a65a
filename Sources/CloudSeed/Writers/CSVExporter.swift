import CloudKitWire
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
package final class CSVExporter {
    private let folder: URL?
    private let schema: Schema
    private var files: [String: FileHandle] = [:]
    private var headers: [String: [String]] = [:]
    /// What is waiting to be written, and where: a record type's file (`""` for standard output).
    /// Records come a type at a time, so one buffer serves, written out when the type changes.
    private var pending: (key: String, bytes: [UInt8]) = ("", [])
    private let standardOutput: ([UInt8]) -> Void
    private static let bufferSize = 1 << 16

    /// Writes into `folder` (one file per type), or, without one, everything to `standardOutput`.
    package init(folder: String?, schema: Schema, standardOutput: @escaping ([UInt8]) -> Void) throws {
        self.folder = folder.map { URL(fileURLWithPath: $0) }
        self.schema = schema
        self.standardOutput = standardOutput
        if let folder {
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            } catch {
                throw CloudSeedError(
                    .fileAccess, "cannot create the export folder; check the path", at: SourcePosition(file: folder))
            }
        }
    }

    package func append(_ record: CloudRecord) throws {
        let fields = try columns(of: record.recordType, otherwise: record.sortedFieldNames)
        let cells = [record.recordID.recordName] + fields.map { name in record.fields[name].map(Self.cell) ?? "" }
        let line = Self.line(
            cells, quoteEmpty: record.fields.filter { $0.value == .string("") }.map(\.key), header: fields)
        try append(line: Array(line.utf8), recordType: record.recordType)
    }

    /// The fields of a type's columns after `recordName`, in order (the schema's, else `otherwise`);
    /// the first time, the type's header line is written.
    package func columns(of recordType: String, otherwise: [String] = []) throws -> [String] {
        if let known = headers[recordType] { return known }
        let fields = schema.recordTypes[recordType]?.sortedFieldNames ?? otherwise
        headers[recordType] = fields
        let header =
            ["recordName"] + fields.map { "\($0):\(schema.fieldType($0, in: recordType)?.wireName ?? "STRING")" }
        try append(line: Array(Self.line(header).utf8), recordType: recordType)
        return fields
    }

    /// Writes a record's line, made of cells in the order of ``columns(of:otherwise:)``.
    package func append(line: [UInt8], recordType: String) throws {
        let key = folder == nil ? "" : recordType
        if key != pending.key {
            try flush()
            pending.key = key
        }
        pending.bytes += line
        if pending.bytes.count >= Self.bufferSize { try flush() }
    }

    /// Writes what is pending and closes the files.
    package func finish() throws {
        try flush()
        for handle in files.values { try? handle.close() }
    }

    private func flush() throws {
        guard !pending.bytes.isEmpty else { return }
        let (recordType, bytes) = pending
        pending.bytes.removeAll(keepingCapacity: true)
        guard let folder else { return standardOutput(bytes) }
        if files[recordType] == nil {
            let path = folder.appendingPathComponent("\(recordType).csv").path
            guard FileManager.default.createFile(atPath: path, contents: nil),
                let handle = FileHandle(forWritingAtPath: path)
            else {
                throw CloudSeedError(.fileAccess, "cannot write the export file", at: SourcePosition(file: path))
            }
            files[recordType] = handle
        }
        files[recordType]!.write(Data(bytes))
    }

    static func cell(_ value: RecordValue) -> String {
        switch value {
        case .string(let text): text
        case .int64(let number): String(number)
        case .double(let number): JSONText.number(number)
        case .bytes(let data): data.base64EncodedString()
        case .timestamp(let milliseconds): Timestamp.format(milliseconds) ?? String(milliseconds)
        case .reference(let reference) where reference.isKeptAsName: reference.recordName
        default: CloudKitJSON.value(value)
        }
    }

    /// An RFC 4180 line; `quoteEmpty` names fields set to the empty string, written `""` so they stay set.
    static func line(_ cells: [String], quoteEmpty: [String] = [], header: [String] = []) -> String {
        let emptyColumns = Set(quoteEmpty.compactMap { header.firstIndex(of: $0).map { $0 + 1 } })
        var line: [UInt8] = []
        for (index, text) in cells.enumerated() {
            if index > 0 { line.append(UInt8(ascii: ",")) }
            CSVCell.append(text.utf8, setButEmpty: emptyColumns.contains(index), to: &line)
        }
        line += "\r\n".utf8
        return String(decoding: line, as: UTF8.self)
    }
}
