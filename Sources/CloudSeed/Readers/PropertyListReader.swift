import Foundation

/// Reads XML and binary property lists through Foundation; positions are key paths (`[2].title`).
struct PropertyListReader: SourceReader {
    var data: Data
    var file: String

    func forEachRow(_ body: (SourceRow) throws -> Void) throws {
        if data.starts(with: Array("bplist".utf8)), isKeyedArchive {
            throw CloudSeedError(
                "this binary property list is an NSKeyedArchiver archive, not plain data; export the objects as a plain property list first",
                at: SourcePosition(file: file))
        }
        let object: Any
        do {
            object = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        } catch {
            throw CloudSeedError(
                "not a readable property list (\(Self.reason(of: error))); check that the file is a complete XML or binary plist",
                at: SourcePosition(file: file))
        }
        try DocumentShape.rows(in: try node(object, path: ""), body)
    }

    private var isKeyedArchive: Bool {
        guard let object = try? PropertyListSerialization.propertyList(from: data, options: [], format: nil),
            let dictionary = object as? [String: Any]
        else { return false }
        return dictionary["$archiver"] != nil && dictionary["$objects"] != nil
    }

    private static func reason(of error: Error) -> String {
        let nsError = error as NSError
        return (nsError.userInfo[NSDebugDescriptionErrorKey] as? String) ?? nsError.localizedDescription
    }

    private func node(_ object: Any, path: String) throws -> DocumentNode {
        let position = SourcePosition(file: file, keyPath: path.isEmpty ? "top level" : path)
        switch object {
        case let value as Bool where type(of: object) == Bool.self:
            return .scalar(.bool(value), position)
        case let text as String:
            return .scalar(.string(text), position)
        case let number as NSNumber:
            let kind = String(cString: number.objCType)
            if kind == "d" || kind == "f" { return .scalar(.real(number.doubleValue), position) }
            return .scalar(.integer(number.int64Value), position)
        case let date as Date:
            return .scalar(.date(Int64((date.timeIntervalSince1970 * 1000).rounded())), position)
        case let data as Data:
            return .scalar(.data(data), position)
        case let array as [Any]:
            return .array(try array.enumerated().map { try node($0.element, path: "\(path)[\($0.offset)]") }, position)
        case let dictionary as [String: Any]:
            let keys = dictionary.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            return .object(
                try keys.map { key in (key, try node(dictionary[key]!, path: path.isEmpty ? key : "\(path).\(key)")) },
                position)
        default:
            throw CloudSeedError("unsupported property list value \(type(of: object))", at: position)
        }
    }
}
