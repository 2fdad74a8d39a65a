import CloudSeedCore

/// The changes that turn one ``SchemaDefinition`` into another, and whether production would accept them.
///
/// ```swift
/// let diff = SchemaDiff(from: deployed, to: edited)
/// print(diff)
/// // + record type Artist
/// // ~ field Artwork.price: INT64 → DOUBLE
/// diff.isAdditive   // false: changing a field's type could lose data
/// ```
///
/// Changes come in schema order: roles, then record types in byte order; within a type, fields in byte
/// order (added or removed, type, encryption, indexes), then grants in role order. An added or removed
/// type is one change; its fields and grants are not listed.
package struct SchemaDiff: Hashable, Sendable, CustomStringConvertible {
    /// The changes, in schema order.
    package var changes: [SchemaChange]

    /// The changes from `old` to `new`.
    package init(from old: SchemaDefinition, to new: SchemaDefinition) {
        changes = Self.difference(old.roles, new.roles).map { added, role in
            added ? .roleAdded(role) : .roleRemoved(role)
        }
        let oldTypes = Dictionary(old.recordTypes.map { ($0.name, $0) }, uniquingKeysWith: { $1 })
        let newTypes = Dictionary(new.recordTypes.map { ($0.name, $0) }, uniquingKeysWith: { $1 })
        for name in Set(oldTypes.keys).union(newTypes.keys).sorted(by: SchemaDefinition.byteOrder) {
            switch (oldTypes[name], newTypes[name]) {
            case (let before?, let after?): changes += Self.changes(from: before, to: after)
            case (let before?, nil): changes.append(.recordTypeRemoved(before))
            case (nil, let after?): changes.append(.recordTypeAdded(after))
            case (nil, nil): break
            }
        }
    }

    /// Whether the schemas are the same.
    package var isEmpty: Bool { changes.isEmpty }

    /// Whether production accepts every change (see ``SchemaChange/isAdditive``); true when there are none.
    package var isAdditive: Bool { changes.allSatisfy(\.isAdditive) }

    /// One change per line, without a final newline; empty when there are no changes.
    package var description: String {
        changes.map(\.description).joined(separator: "\n")
    }

    private static func changes(from old: RecordTypeDefinition, to new: RecordTypeDefinition) -> [SchemaChange] {
        let type = new.name
        var changes: [SchemaChange] = []
        let oldFields = Dictionary(old.fields.map { ($0.name, $0) }, uniquingKeysWith: { $1 })
        let newFields = Dictionary(new.fields.map { ($0.name, $0) }, uniquingKeysWith: { $1 })
        for name in Set(oldFields.keys).union(newFields.keys).sorted(by: SchemaDefinition.byteOrder) {
            switch (oldFields[name], newFields[name]) {
            case (let before?, let after?):
                if before.type != after.type {
                    changes.append(.fieldTypeChanged(recordType: type, field: name, from: before.type, to: after.type))
                }
                if before.isEncrypted != after.isEncrypted {
                    changes.append(.encryptionChanged(recordType: type, field: name, isEncrypted: after.isEncrypted))
                }
                changes += difference(before.sortedOptions, after.sortedOptions).map { added, option in
                    added
                        ? .indexAdded(recordType: type, field: name, option: option)
                        : .indexRemoved(recordType: type, field: name, option: option)
                }
            case (let before?, nil): changes.append(.fieldRemoved(recordType: type, field: before))
            case (nil, let after?): changes.append(.fieldAdded(recordType: type, field: after))
            case (nil, nil): break
            }
        }
        let roles = Set(old.grants.map(\.role)).union(new.grants.map(\.role)).sorted()
        for role in roles {
            let before = old.permissions(of: role)
            let after = new.permissions(of: role)
            if !after.subtracting(before).isEmpty {
                changes.append(.grantAdded(recordType: type, role: role, permissions: after.subtracting(before)))
            }
            if !before.subtracting(after).isEmpty {
                changes.append(.grantRemoved(recordType: type, role: role, permissions: before.subtracting(after)))
            }
        }
        return changes
    }

    /// What is only in `old` (false, removed) or only in `new` (true, added), removals first, each in
    /// the order of its list.
    private static func difference<Element: Hashable>(_ old: [Element], _ new: [Element]) -> [(Bool, Element)] {
        let oldSet = Set(old)
        let newSet = Set(new)
        return old.filter { !newSet.contains($0) }.map { (false, $0) }
            + new.filter { !oldSet.contains($0) }.map { (true, $0) }
    }
}
