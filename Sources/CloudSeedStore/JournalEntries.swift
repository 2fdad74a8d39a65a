import CloudSeedCore

/// The entries of one call to ``StoreBackend/saveJournalEntries(_:of:)`` as a JSON object of
/// strings, each key once with its last value: the form the backends write them in, in one
/// statement each, rather than one statement per entry.
package enum JournalEntries {
    package static func jsonObject(_ entries: [(key: String, value: String)]) -> String {
        var last: [String: Int] = [:]
        for (offset, entry) in entries.enumerated() { last[entry.key] = offset }
        var object: [UInt8] = [UInt8(ascii: "{")]
        for (offset, entry) in entries.enumerated() where last[entry.key] == offset {
            if object.count > 1 { object.append(UInt8(ascii: ",")) }
            JSONText.appendQuoted(entry.key.utf8, to: &object)
            object.append(UInt8(ascii: ":"))
            JSONText.appendQuoted(entry.value.utf8, to: &object)
        }
        object.append(UInt8(ascii: "}"))
        return String(decoding: object, as: UTF8.self)
    }
}
