import Foundation

/// Writes records as an XML property list of CloudKit record dictionaries, with native plist types:
/// TIMESTAMP values as `<date>`, BYTES as `<data>`, numbers as `<integer>` and `<real>`. `import`
/// reads the file back to the same records, types included.
///
/// ```xml
/// <dict><key>recordName</key><string>Get apples</string><key>recordType</key><string>ToDoItem</string>
/// <key>fields</key><dict><key>dueDate</key><dict><key>type</key><string>TIMESTAMP</string>
/// <key>value</key><date>2019-10-28T00:00:00Z</date></dict></dict></dict>
/// ```
enum PropertyListWriter {
    static let header = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
        \t<key>records</key>
        \t<array>

        """
    static let footer = "\t</array>\n</dict>\n</plist>\n"

    static func record(_ record: CloudRecord) -> String {
        var text = "\t\t<dict>\n"
        text += entry("recordName", string(record.recordID.recordName))
        text += entry("recordType", string(record.recordType))
        text += entry("recordChangeTag", string(record.system.changeTag))
        text += "\t\t\t<key>fields</key>\n\t\t\t<dict>\n"
        for name in record.sortedFieldNames {
            let value = record.fields[name]!
            text +=
                "\t\t\t\t<key>\(escaped(name))</key>\n\t\t\t\t<dict><key>type</key>\(string(value.fieldType.wireName))"
            text += "<key>value</key>\(self.value(value))</dict>\n"
        }
        text += "\t\t\t</dict>\n"
        text +=
            "\t\t\t<key>created</key>\(stamp(record.system.createdTimestamp, record.system.createdUserRecordName))\n"
        text +=
            "\t\t\t<key>modified</key>\(stamp(record.system.modifiedTimestamp, record.system.modifiedUserRecordName))\n"
        return text + "\t\t</dict>\n"
    }

    private static func entry(_ key: String, _ value: String) -> String { "\t\t\t<key>\(key)</key>\(value)\n" }

    private static func string(_ text: String) -> String { "<string>\(escaped(text))</string>" }

    private static func real(_ number: Double) -> String { "<real>\(JSONText.number(number))</real>" }

    private static func date(_ milliseconds: Int64) -> String {
        let text = Timestamp.format(milliseconds) ?? ""
        return "<date>\(text.hasSuffix(".000Z") ? String(text.dropLast(5)) + "Z" : text)</date>"
    }

    private static func stamp(_ milliseconds: Int64, _ user: String) -> String {
        "<dict><key>timestamp</key><integer>\(milliseconds)</integer><key>userRecordName</key>\(string(user))</dict>"
    }

    static func value(_ value: RecordValue) -> String {
        switch value {
        case .string(let text): return string(text)
        case .int64(let number): return "<integer>\(number)</integer>"
        case .double(let number): return real(number)
        case .bytes(let data): return "<data>\(data.base64EncodedString())</data>"
        case .timestamp(let milliseconds): return date(milliseconds)
        case .location(let location):
            var members = [("latitude", real(location.latitude)), ("longitude", real(location.longitude))]
            let optional: [(String, Double?)] = [
                ("altitude", location.altitude), ("horizontalAccuracy", location.horizontalAccuracy),
                ("verticalAccuracy", location.verticalAccuracy), ("course", location.course), ("speed", location.speed),
            ]
            members += optional.compactMap { key, number in number.map { (key, real($0)) } }
            if let timestamp = location.timestamp { members.append(("timestamp", "<integer>\(timestamp)</integer>")) }
            return "<dict>" + members.map { "<key>\($0.0)</key>\($0.1)" }.joined() + "</dict>"
        case .reference(let reference):
            let zone = reference.zoneName.map { "<key>zoneID</key><dict><key>zoneName</key>\(string($0))</dict>" } ?? ""
            return
                "<dict><key>recordName</key>\(string(reference.recordName))\(zone)<key>action</key>\(string(reference.action.rawValue))</dict>"
        case .asset(let asset):
            return
                "<dict><key>fileChecksum</key>\(string(asset.fileChecksum))<key>size</key><integer>\(asset.size)</integer></dict>"
        case .list(_, let items):
            return items.isEmpty ? "<array/>" : "<array>" + items.map(self.value).joined() + "</array>"
        }
    }

    /// Text with the characters XML reserves escaped.
    static func escaped(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            default: result.append(character)
            }
        }
        return result
    }
}
