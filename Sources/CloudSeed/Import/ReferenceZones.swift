/// Points each reference that names a zone (CloudKit's `zoneID`) there. One that names the run's
/// own zone points to its own zone, as any reference without a zone does; one to another zone must
/// name a zone the store has, unless `--allow-dangling` keeps it.
struct ReferenceZones {
    private let store: any StoreBackend
    private let scope: StoreScope
    private let allowDangling: Bool
    /// The zones of the run's database that the store has, read at the first reference to another zone.
    private var storedZones: Set<String>?

    init(store: any StoreBackend, scope: StoreScope, allowDangling: Bool) {
        self.store = store
        self.scope = scope
        self.allowDangling = allowDangling
    }

    /// Drops the run's own zone from `record`'s references; throws for a reference to a zone the
    /// store does not have.
    mutating func point(_ record: inout CloudRecord) throws {
        let names = record.fields.compactMap { $0.value.namesAZone ? $0.key : nil }
        for name in names.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            record.fields[name] = try record.fields[name]!.mappingReferences { reference in
                var reference = reference
                guard let zone = reference.zoneName else { return reference }
                if zone == scope.zoneID.zoneName {
                    reference.zoneName = nil
                } else if !allowDangling, try !storeHasZone(zone) {
                    throw CloudSeedError(
                        .unresolvedReference,
                        "field '\(name)' points into zone '\(zone)', which does not exist (ZONE_NOT_FOUND); import into that zone first, or pass \(option: .allowDangling) to keep the reference"
                    )
                }
                return reference
            }
        }
    }

    private mutating func storeHasZone(_ zone: String) throws -> Bool {
        if storedZones == nil {
            let scope = scope
            storedZones = Set(
                try store.zones().filter {
                    $0.container == scope.container && $0.environment == scope.environment
                        && $0.database == scope.database && $0.zoneID.ownerName == scope.zoneID.ownerName
                }.map(\.zoneID.zoneName))
        }
        return storedZones!.contains(zone)
    }
}

extension RecordValue {
    /// Whether the value is a reference, or holds one, that names a zone.
    fileprivate var namesAZone: Bool {
        switch self {
        case .reference(let reference): reference.zoneName != nil
        case .list(.reference, let items): items.contains(where: \.namesAZone)
        default: false
        }
    }

    /// The value with each of its references changed by `change`.
    fileprivate func mappingReferences(_ change: (Reference) throws -> Reference) rethrows -> RecordValue {
        switch self {
        case .reference(let reference): .reference(try change(reference))
        case .list(let type, let items): .list(type, try items.map { try $0.mappingReferences(change) })
        default: self
        }
    }
}
