import Foundation

/// Writes a zone's records of an app's objects back as the objects (`export --model`): one JSON
/// document with, for each entity, its objects' rows, keyed by the model's attribute and
/// relationship names, each row's `recordName` first, a to-one link as the linked object's record
/// name, and a many-to-many link (Core Data's `CDMR` records) as a list on the pair's first side.
/// `import --model` reads the document back into the same records.
struct ObjectsWriter {
    let model: AppModel
    let entities: [ModelEntity]

    /// The document of `records` (a zone's records, any order).
    func document(of records: [CloudRecord]) -> String {
        var links: [String: [String: [String]]] = [:]
        for record in records where record.recordType == CoreDataNames.manyToManyType {
            guard case .string(let names)? = record.fields[CoreDataNames.recordNames],
                case .string(let relationships)? = record.fields[CoreDataNames.relationships],
                let colon = names.firstIndex(of: ":"), let relationship = relationships.split(separator: ":").first
            else { continue }
            links[String(names[..<colon]), default: [:]][String(relationship), default: []].append(
                String(names[names.index(after: colon)...]))
        }
        var rows: [String: [(name: String, row: String)]] = [:]
        for record in records {
            guard case .string(let entityName)? = record.fields[CoreDataNames.entityName],
                let entity = entities.first(where: { $0.name == entityName })
            else { continue }
            let name = record.recordID.recordName
            rows[entityName, default: []].append((name, row(of: record, as: entity, links: links[name] ?? [:])))
        }
        let members = entities.compactMap { entity -> (String, String)? in
            guard let objects = rows[entity.name] else { return nil }
            let sorted = objects.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
            return (entity.name, "[\n    " + sorted.map(\.row).joined(separator: ",\n    ") + "\n  ]")
        }
        return "{\n" + members.map { "  \(JSONText.quoted($0.0)): \($0.1)" }.joined(separator: ",\n") + "\n}\n"
    }

    /// One object's row: its record name, attributes, to-one links, then many-to-many links.
    private func row(of record: CloudRecord, as entity: ModelEntity, links: [String: [String]]) -> String {
        var members = [("recordName", JSONText.quoted(record.recordID.recordName))]
        for attribute in model.allAttributes(of: entity) where !attribute.isTransient {
            guard let value = record.fields[CoreDataNames.field(attribute.name)], let text = json(value, attribute)
            else { continue }
            members.append((attribute.name, text))
        }
        for relationship in model.allRelationships(of: entity) {
            if relationship.isToMany {
                if let names = links[relationship.name] {
                    members.append((relationship.name, JSONText.array(quoting: names.sorted())))
                }
            } else if case .string(let name)? = record.fields[CoreDataNames.field(relationship.name)] {
                members.append((relationship.name, JSONText.quoted(name)))
            }
        }
        return JSONText.object(members)
    }

    /// An attribute's value as JSON: a Boolean as `true` or `false`, a date in ISO 8601, bytes in Base64.
    private func json(_ value: RecordValue, _ attribute: ModelAttribute) -> String? {
        switch value {
        case .string(let text): JSONText.quoted(text)
        case .int64(let number): attribute.type == .boolean ? (number != 0 ? "true" : "false") : String(number)
        case .double(let number): number.isFinite ? JSONText.number(number) : nil
        case .timestamp(let milliseconds): Timestamp.format(milliseconds).map(JSONText.quoted)
        case .bytes(let data): JSONText.quoted(data.base64EncodedString())
        default: nil
        }
    }
}

extension ContainerStore {
    /// Writes the records of `scope` as the objects of `model`'s entities (of `configuration`,
    /// else those synced with CloudKit): ``ObjectsWriter``'s document.
    package func exportObjects(
        of model: AppModel, configuration: String?, in scope: StoreScope, output: () throws -> ([UInt8]) -> Void
    ) throws {
        let writer = ObjectsWriter(model: model, entities: try model.syncedEntities(configuration: configuration))
        let records = try exclusively {
            var records: [CloudRecord] = []
            try backend.forEachRecord(in: scope, recordType: nil) { records.append($0) }
            return records
        }
        let write = try output()
        write(Array(writer.document(of: records).utf8))
    }
}
