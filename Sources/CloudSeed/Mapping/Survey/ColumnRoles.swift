/// The roles a source key (a column) plays: a valid field name or not, the record's identity, a
/// name column, a natural key, part of a location. Worked out once per distinct key instead of for
/// every field of every row: a CSV file's million rows share its header's dozen keys.
struct ColumnRoles {
    enum NaturalKeyRole {
        /// `name`, `title`, `code`, `slug`, `key` or `email`.
        case key
        /// A first name, which with a last name makes a person's name.
        case firstName
        case lastName
    }

    enum LocationRole {
        /// A field already named `location`.
        case location
        case latitude
        case longitude
    }

    let isValidIdentifier: Bool
    /// A name column that is the record's identity only, not kept as a field.
    let isIdentityOnly: Bool
    /// The rank among ``RecordNaming/nameColumns``, where the key is one.
    let nameColumnRank: Int?
    let naturalKeyRole: NaturalKeyRole?
    let locationRole: LocationRole?

    /// The roles of `key`; `findsLocations` false, none is part of a location (an app's model
    /// keeps its latitude and longitude attributes apart).
    init(of key: String, findsLocations: Bool = true) {
        isValidIdentifier = IdentifierMapping.isValid(key)
        isIdentityOnly = RecordNaming.identityOnlyColumns.contains(key)
        nameColumnRank = RecordNaming.nameColumnRank(of: key)
        naturalKeyRole =
            if CaseInsensitiveNames.matchesAny(key, NaturalKeys.fields) {
                .key
            } else if CaseInsensitiveNames.matchesAny(key, NaturalKeys.firstNames) {
                .firstName
            } else if CaseInsensitiveNames.matchesAny(key, NaturalKeys.lastNames) { .lastName } else { nil }
        locationRole =
            if !findsLocations {
                nil
            } else if CaseInsensitiveNames.matches(key, "location") {
                .location
            } else if CaseInsensitiveNames.matchesAny(key, LocationKeys.latitude) {
                .latitude
            } else if CaseInsensitiveNames.matchesAny(key, LocationKeys.longitude) { .longitude } else { nil }
    }
}

/// The roles of the keys one reading thread has met; the key at a field's offset in the previous
/// row is tried first (``RecentKeys``).
///
/// Its properties are not checked for overlapping access at run time (`@exclusivity(unchecked)`):
/// only its own thread uses a cache, and the check cost more than the lookup, twice per field.
final class ColumnRolesCache {
    /// Whether keys may be parts of a location (``ColumnRoles/init(of:findsLocations:)``).
    let findsLocations: Bool

    init(findsLocations: Bool = true) {
        self.findsLocations = findsLocations
    }

    /// The distinct keys met, and their facts.
    @exclusivity(unchecked) private var keys: [String] = []
    @exclusivity(unchecked) private var facts: [ColumnRoles] = []
    /// Where the facts of the key at each offset of the last row are.
    @exclusivity(unchecked) private var recent = RecentKeys<Int>()
    /// Past this many distinct keys (documents whose keys are data), the cache starts afresh.
    private static let capacity = 512

    /// The facts of `key`, which is likely the key at `offset` of the previous row of its shape.
    func facts(of key: String, near offset: Int) -> ColumnRoles {
        if let index = recent.value(of: key, at: offset) { return facts[index] }
        let index = keys.firstIndex(of: key) ?? add(key)
        recent.remember(index, for: key, at: offset)
        return facts[index]
    }

    /// Works out the facts of a key not met before; returns where they are.
    private func add(_ key: String) -> Int {
        if keys.count >= Self.capacity {
            keys.removeAll(keepingCapacity: true)
            facts.removeAll(keepingCapacity: true)
            recent.removeAll()
        }
        keys.append(key)
        facts.append(ColumnRoles(of: key, findsLocations: findsLocations))
        return keys.count - 1
    }
}
