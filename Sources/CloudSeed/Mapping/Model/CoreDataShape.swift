import Crypto
import Foundation

/// Records of an app's objects as Core Data writes them to CloudKit (CLOUDKIT.md §8): the type
/// of the root entity (`CD_Trip`), fields `CD_` and the attribute's name, `CD_entityName`, an
/// upper-case UUID record name, a to-one link as the STRING record name of the object linked,
/// and a `CDMR` record per many-to-many pair. Defaults fill the attributes a row leaves unset; a
/// value over 700,000 bytes goes to its attribute's `_ckAsset` twin, as Core Data moves it. Both
/// ends of a one-to-one hold the link: the end a row does not give is set once the run's records
/// are written (``inverseLinks``).
struct CoreDataShape {
    /// The plan as written: the types and fields above, from the plan the rows were built by.
    let plan: ImportPlan
    /// How each record the rows were built into (by its type) is written.
    private let ways: [String: RecordWay]
    private let container: String
    /// The many-to-many pairs written so far: a link given from both sides is written once.
    private var linkedPairs = Set<String>()
    /// The other ends of the one-to-one links written so far, which the records linked to take.
    private(set) var inverseLinks: [InverseLink] = []
    /// The record names of the objects linked to last, by root entity and name: many records
    /// link to the same few (every artwork to one of a few artists), whose names are hashed once.
    private var linkedNames: [LinkedObject: String] = [:]

    private struct LinkedObject: Hashable {
        var root: String
        var name: String
    }

    /// How many linked names are kept at most; past it, the kept ones are dropped.
    private static let linkedNamesKept = 65_536

    /// The record at the other end of a one-to-one link, and the field that links it back.
    struct InverseLink {
        var recordType: String
        var recordName: String
        var field: String
        var value: String
    }

    private struct RecordWay {
        var recordType: String
        var entity: String
        /// The root entity, which names derive from.
        var root: String
        /// One per field of the written type, in its order.
        var slots: [Slot]
        var pairs: [Pairing]
        /// The places of each attribute's value and of its `_ckAsset` twin among the slots.
        var twins: [(value: Int, asset: Int)]
        /// The one-to-one link slots, with the record type linked to and its field linking back.
        var inverses: [(slot: Int, recordType: String, field: String)]
    }

    /// The size past which Core Data keeps a value in its `_ckAsset` twin.
    static let largestInlineValue = 700_000

    private enum Slot {
        /// The built record's value at `index`, else the attribute's default.
        case value(index: Int?, default: RecordValue?)
        /// The record name of the object the built reference at `index` names, of entity `root`.
        case link(index: Int, root: String)
        case entityName
        case unset
    }

    /// A list of references at `index` that makes `CDMR` records.
    private struct Pairing {
        var index: Int
        var pair: ManyToMany
        /// Whether the building record's side is the pair's first.
        var isFirst: Bool
        var root: String
    }

    /// `plan` (made with `mapping`) as written into `container`.
    init(plan built: ImportPlan, mapping: ModelMapping, container: String) throws {
        self.container = container
        let model = mapping.model
        var written: [String: PlannedRecordType] = [:]
        var sources: [String: [String: Slot]] = [:]
        var pairings: [String: [Pairing]] = [:]
        var order: [String] = []
        var links: [String] = []
        // By the rows' type and the link field: the record type linked to and its field back.
        var inverseFields: [String: [String: (recordType: String, field: String, reason: String)]] = [:]
        let pairs = model.manyToManyPairs(among: mapping.entities)
        for type in built.recordTypes {
            guard let entity = mapping.entity(forType: type.name) else {
                let closest = mapping.entities.map(\.name).min {
                    EditDistance.between(Array($0), Array(type.name))
                        < EditDistance.between(Array($1), Array(type.name))
                }
                throw CloudSeedError(
                    .unknownRecordType,
                    "rows of \(type.name) are objects of no entity of the model\(closest.map { "; the closest is \($0)" } ?? ""): rename the file or give its type with \(option: .recordType(closest))",
                    at: type.firstRowPosition)
            }
            let root = model.root(of: entity)
            let recordType = CoreDataNames.recordType(root.name)
            var slots: [String: Slot] = [CoreDataNames.entityName: .entityName]
            var fields: [String: PlannedField] = [
                CoreDataNames.entityName: PlannedField(
                    type: .string, rule: .model, reason: "the entity, \(entity.name)")
            ]
            var positions = [CoreDataNames.entityName: type.firstRowPosition]
            var renamed: [String: String] = [:]
            let names = type.sortedFieldNames
            for (index, name) in names.enumerated() {
                guard let planned = type.fields[name], let modelField = planned.modelField,
                    let property = modelField.property
                else { continue }
                let field = CoreDataNames.field(property)
                if let relationship = modelField.relationship,
                    let destination = model.entity(named: relationship.destination)
                {
                    let destinationRoot = model.root(of: destination).name
                    if relationship.isToMany {
                        // The relationship may be declared by an ancestor, which then names the pair.
                        let lineage = Set(model.lineage(of: entity).map(\.name))
                        if let pair = pairs.first(where: {
                            (lineage.contains($0.first.entity) && $0.first.relationship.name == property)
                                || (lineage.contains($0.second.entity) && $0.second.relationship.name == property)
                        }) {
                            let isFirst =
                                lineage.contains(pair.first.entity) && pair.first.relationship.name == property
                            links.append(
                                "\(entity.name).\(property) from key '\(type.renamedKeys[name] ?? name)'")
                            pairings[type.name, default: []].append(
                                Pairing(index: index, pair: pair, isFirst: isFirst, root: destinationRoot))
                        }
                        continue
                    }
                    slots[field] = .link(index: index, root: destinationRoot)
                    if let inverse = model.inverse(of: relationship), !inverse.isToMany {
                        inverseFields[type.name, default: [:]][field] = (
                            CoreDataNames.recordType(destinationRoot), CoreDataNames.field(inverse.name),
                            "the other end of \(entity.name).\(property), a one-to-one"
                        )
                    }
                    var linked = planned
                    linked.type = .string
                    fields[field] = linked
                } else {
                    slots[field] = .value(index: index, default: modelField.attribute.flatMap(Self.defaultValue(of:)))
                    fields[field] = planned
                    if let attribute = modelField.attribute, attribute.type.hasAssetTwin {
                        let twin = CoreDataNames.assetTwin(property)
                        fields[twin] = PlannedField(
                            type: .asset, rule: .model,
                            reason: "where a value of \(entity.name).\(property) over 700,000 bytes goes")
                        positions[twin] = type.firstPositions[name] ?? type.firstRowPosition
                    }
                }
                positions[field] = type.firstPositions[name] ?? type.firstRowPosition
                renamed[field] = type.renamedKeys[name] ?? name
            }
            for attribute in model.allAttributes(of: entity) where !attribute.isTransient {
                let field = CoreDataNames.field(attribute.name)
                guard slots[field] == nil, let value = Self.defaultValue(of: attribute),
                    let fieldType = attribute.type.fieldType
                else { continue }
                slots[field] = .value(index: nil, default: value)
                fields[field] = PlannedField(
                    type: fieldType, rule: .model, reason: "\(entity.name).\(attribute.name)'s default")
                positions[field] = type.firstRowPosition
            }
            sources[type.name] = slots
            if var merged = written[recordType] {
                merged.fields.merge(fields) { first, _ in first }
                merged.firstPositions.merge(positions) { first, _ in first }
                merged.renamedKeys.merge(renamed) { first, _ in first }
                merged.rowCount += type.rowCount
                merged.objectsOf.append(entity.name)
                merged.fields[CoreDataNames.entityName]?.reason =
                    "the entity: \(merged.objectsOf.joined(separator: ", "))"
                written[recordType] = merged
            } else {
                order.append(recordType)
                var planned = PlannedRecordType(
                    name: recordType, fields: fields, namingRule: type.namingRule,
                    rowsWithOwnName: type.rowsWithOwnName, rowCount: type.rowCount,
                    firstRowPosition: type.firstRowPosition, firstPositions: positions, renamedKeys: renamed)
                planned.objectsOf = [entity.name]
                written[recordType] = planned
            }
        }
        // The other end of a one-to-one is a field of its type, where the run writes that type.
        for (_, fields) in inverseFields {
            for (recordType, field, reason) in fields.values where written[recordType]?.fields[field] == nil {
                guard var linked = written[recordType] else { continue }
                linked.fields[field] = PlannedField(type: .string, rule: .model, reason: OptionText(reason))
                linked.firstPositions[field] = linked.firstRowPosition
                written[recordType] = linked
            }
        }
        var ways: [String: RecordWay] = [:]
        for type in built.recordTypes {
            let entity = mapping.entity(forType: type.name)!
            let recordType = CoreDataNames.recordType(model.root(of: entity).name)
            let names = written[recordType]!.sortedFieldNames
            let slots = names.map { sources[type.name]?[$0] ?? .unset }
            let twins = names.indices.compactMap { index -> (Int, Int)? in
                guard names[index].hasSuffix("_ckAsset"),
                    case .value? = sources[type.name]?[String(names[index].dropLast(8))],
                    let value = names.firstIndex(of: String(names[index].dropLast(8)))
                else { return nil }
                return (value, index)
            }
            let inverses = names.indices.compactMap { index -> (Int, String, String)? in
                guard let other = inverseFields[type.name]?[names[index]], written[other.recordType] != nil else {
                    return nil
                }
                return (index, other.recordType, other.field)
            }
            ways[type.name] = RecordWay(
                recordType: recordType, entity: entity.name, root: model.root(of: entity).name, slots: slots,
                pairs: pairings[type.name] ?? [], twins: twins, inverses: inverses)
        }
        var types = order.map { written[$0]! }
        if !pairings.isEmpty, let type = built.recordTypes.first {
            let field = PlannedField(
                type: .string, rule: .model, reason: "many-to-many links of \(links.joined(separator: ", "))")
            types.append(
                PlannedRecordType(
                    name: CoreDataNames.manyToManyType,
                    fields: [
                        CoreDataNames.entityNames: field, CoreDataNames.recordNames: field,
                        CoreDataNames.relationships: field,
                    ],
                    namingRule: .linkedPair, rowsWithOwnName: 0, rowCount: 0, firstRowPosition: type.firstRowPosition,
                    firstPositions: [
                        CoreDataNames.entityNames: type.firstRowPosition,
                        CoreDataNames.recordNames: type.firstRowPosition,
                        CoreDataNames.relationships: type.firstRowPosition,
                    ]))
        }
        var plan = built
        plan.recordTypes = types
        self.plan = plan
        self.ways = ways
    }

    /// The record name of the object of `root` named `name` that a record links to.
    private mutating func linkedName(_ name: String, root: String) -> String {
        let object = LinkedObject(root: root, name: name)
        if let known = linkedNames[object] { return known }
        if linkedNames.count >= Self.linkedNamesKept { linkedNames.removeAll(keepingCapacity: true) }
        let recordName = CoreDataRecordNames.name(name, root: root, container: container)
        linkedNames[object] = recordName
        return recordName
    }

    /// The records `record` (built by the plan the rows were read by) is written as: its object's,
    /// then a `CDMR` record for each many-to-many pair it links that was not written before.
    mutating func records(from record: TypedRecord) -> [TypedRecord] {
        let way = ways[record.recordType]!
        let name = CoreDataRecordNames.name(record.recordName, root: way.root, container: container)
        var values = way.slots.map { slot -> RecordValue? in
            switch slot {
            case .value(let index, let fallback): index.flatMap { record.values[$0] } ?? fallback
            case .link(let index, let root):
                if case .reference(let reference)? = record.values[index] {
                    .string(linkedName(reference.recordName, root: root))
                } else {
                    nil
                }
            case .entityName: .string(way.entity)
            case .unset: nil
            }
        }
        var assets: [String: Data] = [:]
        for (value, asset) in way.twins {
            let content: Data
            switch values[value] {
            case .string(let text)? where text.utf8.count > Self.largestInlineValue: content = Data(text.utf8)
            case .bytes(let data)? where data.count > Self.largestInlineValue: content = data
            default: continue
            }
            let checksum = SHA256.hexDigest(of: content)
            values[asset] = .asset(AssetReference(fileChecksum: checksum, size: Int64(content.count)))
            values[value] = nil
            assets[checksum] = content
        }
        var shaped = TypedRecord(
            recordType: way.recordType, recordName: name, values: values, position: record.position)
        shaped.changeTag = record.changeTag
        shaped.checksStore = record.checksStore
        // Only the twins' contents: the built record's asset files are saved as it is built.
        shaped.assetContents = assets
        for (slot, recordType, field) in way.inverses {
            if case .string(let other)? = values[slot] {
                inverseLinks.append(InverseLink(recordType: recordType, recordName: other, field: field, value: name))
            }
        }
        var records = [shaped]
        for pairing in way.pairs {
            guard case .list(_, let items)? = record.values[pairing.index] else { continue }
            for case .reference(let reference) in items {
                let other = linkedName(reference.recordName, root: pairing.root)
                let names = pairing.isFirst ? "\(name):\(other)" : "\(other):\(name)"
                let linkName = CoreDataRecordNames.name(
                    names, root: CoreDataNames.manyToManyType, container: container)
                guard linkedPairs.insert(linkName).inserted else { continue }
                records.append(
                    TypedRecord(
                        recordType: CoreDataNames.manyToManyType, recordName: linkName,
                        values: [
                            .string(pairing.pair.entityNames), .string(names), .string(pairing.pair.relationships),
                        ], position: record.position))
            }
        }
        return records
    }

    /// The value a new object gets for `attribute`, where the model gives one it can read.
    static func defaultValue(of attribute: ModelAttribute) -> RecordValue? {
        guard let text = attribute.defaultValue else { return nil }
        switch attribute.type {
        case .string, .uri: return .string(text)
        case .uuid: return UUID(uuidString: text).map { .string($0.uuidString) }
        case .boolean: return ModelValues.boolean(text).map { .int64($0 ? 1 : 0) }
        case .integer16, .integer32, .integer64: return Int64(text).map(RecordValue.int64)
        case .double, .float, .decimal: return Double(text).map(RecordValue.double)
        case .date:
            // Core Data counts a default date in seconds since 2001; SwiftData's `.now` has no fixed value.
            return Double(text).map { .timestamp(Int64((($0 + 978_307_200) * 1000).rounded())) }
        case .binary, .transformable, .undefined, .objectID, .composite: return nil
        }
    }
}
