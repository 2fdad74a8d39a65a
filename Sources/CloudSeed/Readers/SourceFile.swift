import Foundation

/// The formats cloudseed reads.
public enum SourceFormat: String, CaseIterable, Sendable {
    case csv, tsv, json, jsonLines = "jsonl", propertyList = "plist"

    /// The format an extension names, if any.
    init?(fileExtension: String) {
        switch fileExtension.lowercased() {
        case "csv": self = .csv
        case "tsv", "tab": self = .tsv
        case "json": self = .json
        case "jsonl", "ndjson": self = .jsonLines
        case "plist": self = .propertyList
        default: return nil
        }
    }

    /// The format the content shows: a property list header, a JSON bracket, or else CSV.
    init(sniffing bytes: [UInt8]) {
        let start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        let text = bytes[start..<min(bytes.count, start + 64)].drop { [0x20, 0x09, 0x0A, 0x0D].contains($0) }
        if bytes.starts(with: Array("bplist".utf8)) || text.starts(with: Array("<?xml".utf8))
            || text.starts(with: Array("<plist".utf8)) || text.starts(with: Array("<!DOCTYPE plist".utf8))
        {
            self = .propertyList
        } else if text.first == UInt8(ascii: "[") || text.first == UInt8(ascii: "{") {
            self = .json
        } else {
            self = .csv
        }
    }
}

/// A source named on the command line: its path, its bytes and the format to read it as.
public struct SourceFile: Sendable {
    /// The path as the user gave it (`-` for standard input).
    public var path: String
    public var format: SourceFormat
    public var bytes: [UInt8]

    /// Loads `path` (or standard input for `-`), taking the format from `format`, the extension or the content.
    public init(path: String, format: SourceFormat? = nil) throws {
        self.path = path
        if path == "-" {
            bytes = Array(FileHandle.standardInput.readDataToEndOfFile())
        } else {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw CloudSeedError("no such file; check the path", at: SourcePosition(file: path))
            }
            guard !isDirectory.boolValue else {
                throw CloudSeedError("is a folder; name the files inside it", at: SourcePosition(file: path))
            }
            guard let data = FileManager.default.contents(atPath: path) else {
                throw CloudSeedError("cannot be read; check its permissions", at: SourcePosition(file: path))
            }
            bytes = Array(data)
        }
        self.format = format ?? Self.detect(extension: (path as NSString).pathExtension, bytes: bytes)
    }

    /// The content decides where it is plainly a property list or JSON; otherwise the extension does.
    private static func detect(extension fileExtension: String, bytes: [UInt8]) -> SourceFormat {
        let byExtension = SourceFormat(fileExtension: fileExtension)
        let sniffed = SourceFormat(sniffing: bytes)
        if sniffed == .propertyList || (sniffed == .json && byExtension != .jsonLines) { return sniffed }
        return byExtension ?? sniffed
    }

    /// The folder that relative paths inside the source (assets) are taken from.
    public var folder: String {
        path == "-" ? FileManager.default.currentDirectoryPath : (path as NSString).deletingLastPathComponent
    }

    /// The file name without folder or extension (`ToDoItems` for `SampleData/ToDoItems.plist`).
    public var stem: String {
        var name = (path as NSString).lastPathComponent
        while let dot = name.lastIndex(of: "."), dot != name.startIndex { name = String(name[..<dot]) }
        return name
    }

    /// A reader for this source.
    public func reader(delimiter: UInt8? = nil) -> SourceReader {
        switch format {
        case .csv: CSVReader(bytes: bytes, file: path, delimiter: delimiter)
        case .tsv: CSVReader(bytes: bytes, file: path, delimiter: delimiter ?? 0x09)
        case .json: JSONReader(bytes: bytes, file: path, isLines: false)
        case .jsonLines: JSONReader(bytes: bytes, file: path, isLines: true)
        case .propertyList: PropertyListReader(data: Data(bytes), file: path)
        }
    }
}
