import CloudSeed

/// The order a zone's records are sent in, so that the server takes every reference: a record
/// comes after the records its VALIDATE references name (CloudKit refuses a VALIDATE reference to
/// a record that does not exist yet); records with none keep the store's order and go first.
///
/// `Artwork "Thinker"` with a VALIDATE reference to `Artist "Rodin"` goes after `Rodin`.
enum PushOrder {
    /// The records of the same zone that `record`'s VALIDATE references name.
    static func validated(_ record: CloudRecord) -> [String] {
        guard
            record.fields.values.contains(where: {
                $0.references.contains { $0.action == .validate && $0.zoneName == nil }
            })
        else { return [] }
        return record.sortedFieldNames.flatMap { name in
            record.fields[name]!.references.filter { $0.action == .validate && $0.zoneName == nil }
                .map(\.recordName)
        }
    }

    static func hasValidatedReferences(_ record: CloudRecord) -> Bool {
        record.fields.values.contains { $0.references.contains { $0.action == .validate } }
    }

    static func ordered(_ records: [CloudRecord]) -> [CloudRecord] {
        var first: [CloudRecord] = []
        var waiting: [CloudRecord] = []
        for record in records {
            if validated(record).isEmpty { first.append(record) } else { waiting.append(record) }
        }
        guard !waiting.isEmpty else { return first }
        let byName = Dictionary(waiting.map { ($0.recordID.recordName, $0) }, uniquingKeysWith: { first, _ in first })
        var placed = Set<String>()
        var ordered = first
        // Depth first: each record after the waiting records it names; a cycle is sent as it comes.
        func place(_ record: CloudRecord, visiting: inout Set<String>) {
            let name = record.recordID.recordName
            guard !placed.contains(name), visiting.insert(name).inserted else { return }
            for target in validated(record) {
                if let next = byName[target] { place(next, visiting: &visiting) }
            }
            placed.insert(name)
            ordered.append(record)
        }
        for record in waiting {
            var visiting = Set<String>()
            place(record, visiting: &visiting)
        }
        return ordered
    }
}
