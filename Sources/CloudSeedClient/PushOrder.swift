import CloudSeed

/// The order a zone's records are sent in, so that the server takes every reference: a record
/// comes after the records its VALIDATE references name (CloudKit refuses a VALIDATE reference to
/// a record that does not exist yet); records with none keep the store's order and go first.
///
/// `Artwork "Thinker"` with a VALIDATE reference to `Artist "Rodin"` goes after `Rodin`.
enum PushOrder {
    static func ordered(_ records: [OutgoingRecord]) -> [OutgoingRecord] {
        var first: [OutgoingRecord] = []
        var waiting: [OutgoingRecord] = []
        for record in records {
            if record.validatedTargets.isEmpty { first.append(record) } else { waiting.append(record) }
        }
        guard !waiting.isEmpty else { return first }
        let byName = Dictionary(
            waiting.map { ($0.recordName, $0) }, uniquingKeysWith: { first, _ in first })
        var placed = Set<String>()
        var ordered = first
        // Depth first: each record after the waiting records it names; a cycle is sent as it comes.
        func place(_ record: OutgoingRecord, visiting: inout Set<String>) {
            let name = record.recordName
            guard !placed.contains(name), visiting.insert(name).inserted else { return }
            for target in record.validatedTargets {
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
