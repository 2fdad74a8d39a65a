import CloudKitWire
import Foundation

/// Records as a text table or CSV: the record name, then each field in byte order.
package enum RecordTable {
    /// The columns a list of records needs: `recordName` and every field any of them sets.
    static func columns(_ records: [CloudRecord]) -> [String] {
        ["recordName"] + Set(records.flatMap(\.fields.keys)).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// A cell's text: strings as they are, other values in the CloudKit JSON form.
    static func cell(_ record: CloudRecord, _ column: String) -> String {
        if column == "recordName" { return record.recordID.recordName }
        switch record.fields[column] {
        case nil: return ""
        case .string(let text)?: return text
        case .timestamp(let milliseconds)?: return Timestamp.format(milliseconds) ?? String(milliseconds)
        case .reference(let reference)? where reference.action == .none && reference.zoneName == nil:
            return reference.recordName
        case let value?: return CloudKitJSON.value(value)
        }
    }

    package static func text(_ records: [CloudRecord]) -> String {
        let columns = columns(records)
        let rows =
            [columns]
            + records.map { record in columns.map { cell(record, $0).replacingOccurrences(of: "\n", with: "⏎") } }
        let widths = columns.indices.map { index in rows.map { $0[index].count }.max() ?? 0 }
        return rows.map { row in
            zip(row, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }.joined(separator: "  ")
                .replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression)
        }.joined(separator: "\n") + "\n"
    }

    package static func csv(_ records: [CloudRecord]) -> String {
        let columns = columns(records)
        func quoted(_ text: String) -> String {
            text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" })
                ? "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : text
        }
        return ([columns] + records.map { record in columns.map { cell(record, $0) } })
            .map { $0.map(quoted).joined(separator: ",") }.joined(separator: "\r\n") + "\r\n"
    }
}
