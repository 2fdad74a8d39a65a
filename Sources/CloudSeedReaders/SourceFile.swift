package import CloudSeedCore
import Foundation

/// The formats cloudseed reads.
public enum SourceFormat: String, CaseIterable, Sendable {
    case csv, tsv, json
    case jsonLines = "jsonl"
    case propertyList = "plist"

    /// The format an extension names, if any.
    package init?(fileExtension: String) {
        switch fileExtension.lowercased() {
        case "csv": self = .csv
        case "tsv", "tab": self = .tsv
        case "json": self = .json
        case "jsonl", "ndjson": self = .jsonLines
        case "plist", "pbxproj", "strings": self = .propertyList
        default: return nil
        }
    }

    /// The format the content shows: a property list header, a JSON bracket (objects one per line
    /// being JSON Lines), or else CSV.
    package init(sniffing bytes: ArraySlice<UInt8>) {
        let text = bytes.drop { [0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }
        if bytes.starts(with: Array("bplist".utf8)) || text.starts(with: Array("<?xml".utf8))
            || text.starts(with: Array("<plist".utf8)) || text.starts(with: Array("<!DOCTYPE plist".utf8))
            || text.starts(with: Array("// !$*UTF8*$!".utf8))
        {
            self = .propertyList
        } else if let first = text.first, first == UInt8(ascii: "[") || first == UInt8(ascii: "{") {
            let next = text.dropFirst().first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
            let looksLikeOpenStep = next.map { ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) } ?? false
            if first == UInt8(ascii: "{") && looksLikeOpenStep {
                self = .propertyList
            } else {
                self = Self.startsWithLines(text) ? .jsonLines : .json
            }
        } else {
            self = .csv
        }
    }

    /// Whether the text starts with a whole JSON object, then a line break and another object: one
    /// value per line, as `mongoexport` writes a `.json` file. An object longer than the bytes given
    /// does not tell.
    private static func startsWithLines(_ text: ArraySlice<UInt8>) -> Bool {
        guard text.first == UInt8(ascii: "{") else { return false }
        var depth = 0
        var inString = false
        var escaped = false
        for index in text.indices {
            let byte = text[index]
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                guard depth == 0 else { continue }
                let rest = text[(index + 1)...]
                guard let lineBreak = rest.firstIndex(where: { ![0x20, 0x09, 0x0D].contains($0) }),
                    rest[lineBreak] == 0x0A
                else { return false }
                return rest[lineBreak...].first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) } == UInt8(ascii: "{")
            default: continue
            }
        }
        return false
    }
}

/// A source named on the command line: where it is, and the format to read it as.
///
/// Sources are read twice (once to decide types, once to write), a chunk at a time; standard input
/// and UTF-16 files are first copied, as UTF-8, to a temporary file that is removed afterwards.
public final class SourceFile: Sendable {
    /// The path as the user gave it (`-` for standard input); errors name it.
    public let path: String
    public let format: SourceFormat
    /// The record type of this source's rows where the document names none (a manifest's `recordType`).
    public let recordType: String?
    /// The file the bytes are read from.
    private let readPath: String
    private let isTemporary: Bool

    /// Opens `path` (or standard input for `-`), taking the format from `format`, else the content, else the extension.
    public init(path: String, format: SourceFormat? = nil, recordType: String? = nil) throws {
        self.path = path
        self.recordType = recordType
        var readPath = path
        var isTemporary = false
        if path == "-" {
            readPath = try Self.temporaryCopy(of: FileHandle.standardInput.readDataToEndOfFile())
            isTemporary = true
        } else {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw CloudSeedError(.fileAccess, "no such file; check the path", at: SourcePosition(file: path))
            }
            guard !isDirectory.boolValue else {
                throw CloudSeedError(
                    .fileAccess, "is a folder; name the files inside it", at: SourcePosition(file: path))
            }
        }
        let head = try Self.head(of: readPath, display: path)
        let converted = try Self.convertedFromUTF16(head: head, path: readPath, display: path)
        let readHead = try converted.map { try Self.head(of: $0, display: path) } ?? head
        let format = format ?? Self.detect(extension: (path as NSString).pathExtension, head: readHead)
        // An XML property list keeps its own bytes: libxml2 reads UTF-16 as its declaration says.
        if let converted {
            if format == .propertyList {
                try? FileManager.default.removeItem(atPath: converted)
            } else {
                if isTemporary { try? FileManager.default.removeItem(atPath: readPath) }
                readPath = converted
                isTemporary = true
            }
        }
        self.readPath = readPath
        self.isTemporary = isTemporary
        self.format = format
    }

    deinit {
        if isTemporary { try? FileManager.default.removeItem(atPath: readPath) }
    }

    private static func head(of path: String, display: String) throws -> [UInt8] {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw CloudSeedError(
                .fileAccess, "cannot be read; check its permissions", at: SourcePosition(file: display))
        }
        defer { try? handle.close() }
        return Array(handle.readData(ofLength: 4096))
    }

    private static func temporaryCopy(of data: Data) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("cloudseed-\(UUID().uuidString)").path
        guard FileManager.default.createFile(atPath: path, contents: data) else {
            throw CloudSeedError(
                .fileAccess,
                "cannot write a temporary copy of standard input in \(FileManager.default.temporaryDirectory.path)")
        }
        return path
    }

    /// A UTF-8 copy of a file that starts with a UTF-16 byte-order mark, or `nil` for other files.
    private static func convertedFromUTF16(head: [UInt8], path: String, display: String) throws -> String? {
        let encoding: String.Encoding
        if head.starts(with: [0xFF, 0xFE]) {
            encoding = .utf16LittleEndian
        } else if head.starts(with: [0xFE, 0xFF]) {
            encoding = .utf16BigEndian
        } else {
            return nil
        }
        guard let data = FileManager.default.contents(atPath: path),
            let text = String(data: data.dropFirst(2), encoding: encoding)
        else {
            throw CloudSeedError(
                .invalidValue, "the file starts with a UTF-16 byte-order mark but is not valid UTF-16",
                at: SourcePosition(file: display))
        }
        return try temporaryCopy(of: Data(text.utf8))
    }

    /// The content decides where it is plainly a property list, JSON Lines or JSON; otherwise the extension does.
    private static func detect(extension fileExtension: String, head: [UInt8]) -> SourceFormat {
        let byExtension = SourceFormat(fileExtension: fileExtension)
        let sniffed = SourceFormat(sniffing: head[...])
        if sniffed == .propertyList || sniffed == .jsonLines || (sniffed == .json && byExtension != .jsonLines) {
            return sniffed
        }
        return byExtension ?? sniffed
    }

    /// The size of the bytes read, in bytes.
    package var size: Int {
        ((try? FileManager.default.attributesOfItem(atPath: readPath))?[.size] as? NSNumber)?.intValue ?? 0
    }

    /// The folder that relative paths inside the source (assets) are taken from.
    package var folder: String {
        path == "-" ? FileManager.default.currentDirectoryPath : (path as NSString).deletingLastPathComponent
    }

    /// The file name without folder and extensions: the last one, and any more made of letters only
    /// (`ToDoItems` for `ToDoItems.binary.plist`; `cars-0.9.0` keeps its version).
    package var stem: String {
        var name = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        while case let last = (name as NSString).pathExtension, !last.isEmpty, last.allSatisfy(\.isLetter) {
            name = (name as NSString).deletingPathExtension
        }
        return name
    }

    /// A reader for this source; each call reads it from the start.
    ///
    /// With `badRow`, rows a reader can step over (a CSV row wider than its header) go there instead
    /// of ending the read.
    package func reader(
        csv: CSVOptions = CSVOptions(), badRow: ((CloudSeedError) throws -> Void)? = nil, meter: ProgressMeter? = nil
    ) -> any SourceReader {
        let input = { try ChunkedInput(path: self.readPath, meter: meter) }
        switch format {
        case .csv: return CSVReader(input: input, file: path, options: csv, badRow: badRow)
        case .tsv:
            return CSVReader(
                input: input, file: path,
                options: CSVOptions(delimiter: csv.delimiter ?? 0x09, columns: csv.columns, hasHeader: csv.hasHeader),
                badRow: badRow)
        case .json: return JSONReader(input: input, file: path, isLines: false)
        case .jsonLines: return JSONReader(input: input, file: path, isLines: true)
        case .propertyList: return PropertyListReader(input: input, file: path)
        }
    }
}
