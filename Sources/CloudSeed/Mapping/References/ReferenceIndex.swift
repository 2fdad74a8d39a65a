import Foundation

/// Finds the records a reference value names, among the records of one type (of the run and of
/// the store): by record name, then by natural key, then by the record name a row naming its
/// record with the value gets (`Łukasz-7` → `Lukasz-7`), then normalised — case, white space and
/// diacritics folded, and `Chen, Mei` read as `Mei Chen`.
struct ReferenceIndex: @unchecked Sendable {
    private var byName: Set<String> = []
    /// Natural-key text → the one record it names; keys naming several records are in ``sharedKeys``.
    private var byKey: [String: String] = [:]
    private var sharedKeys: [String: Set<String>] = [:]
    /// Built on the first lookup that needs it: most values match a name or key as written.
    private var normalised = NormalisedNames()

    /// Built once by whichever thread needs it first: rows are typed on two cores.
    private final class NormalisedNames: @unchecked Sendable {
        private let lock = NSLock()
        private var built: [String: Set<String>]?

        var isBuilt: Bool {
            lock.lock()
            defer { lock.unlock() }
            return built != nil
        }

        func map(_ build: () -> [String: Set<String>]) -> [String: Set<String>] {
            lock.lock()
            defer { lock.unlock() }
            if let built { return built }
            let map = build()
            built = map
            return map
        }
    }

    /// Adds a record with the natural-key texts it can be found by.
    mutating func add(recordName: String, keys: [String]) {
        byName.insert(recordName)
        for key in keys where !key.isEmpty {
            if let other = byKey.updateValue(recordName, forKey: key), other != recordName {
                sharedKeys[key, default: [other]].insert(recordName)
            }
        }
        if normalised.isBuilt { normalised = NormalisedNames() }
    }

    var isEmpty: Bool { byName.isEmpty }

    /// Whether `other` finds the same records by the same names and keys.
    func findsTheSame(as other: ReferenceIndex) -> Bool {
        byName == other.byName && byKey == other.byKey && sharedKeys == other.sharedKeys
    }

    private var byNormalised: [String: Set<String>] {
        normalised.map {
            var map: [String: Set<String>] = [:]
            for name in byName { map[Self.normalise(name), default: []].insert(name) }
            for (key, name) in byKey { map[Self.normalise(key), default: []].formUnion(sharedKeys[key] ?? [name]) }
            return map
        }
    }

    /// The one record `value` names as written (by record name, or by a natural key only one
    /// record has) or as a record name made of it, without building a set: what almost every
    /// reference value finds.
    func exactMatch(_ value: String) -> String? {
        if byName.contains(value) { return value }
        if let name = byKey[value] { return sharedKeys[value] == nil ? name : nil }
        return madeNameMatch(value)
    }

    /// The record names `value` matches, at the first rule that finds any.
    func matches(_ value: String) -> Set<String> {
        if byName.contains(value) { return [value] }
        if let names = sharedKeys[value] { return names }
        if let name = byKey[value] { return [name] }
        if let made = madeNameMatch(value) { return [made] }
        return byNormalised[Self.normalise(value)] ?? []
    }

    /// The record named as a row named `value` would be, where that differs from `value`: a
    /// stored record that a source named with letters a record name does not keep.
    private func madeNameMatch(_ value: String) -> String? {
        let made = RecordNaming.recordName(from: value)
        return made != value && byName.contains(made) ? made : nil
    }

    /// Up to `count` record names closest to `value`, for an error's suggestions; an app's
    /// object, named by a UUID, by its first key instead (`Lisbon`, not `FA04DD34-…`).
    func closest(to value: String, count: Int = 3) -> [String] {
        let target = Array(Self.normalise(value))
        let scored = byNormalised.map { key, names in (EditDistance.between(target, Array(key)), names.sorted().first!)
        }
        var seen = Set<String>()
        return scored.sorted { ($0.0, $0.1) < ($1.0, $1.1) }.map(\.1).filter { seen.insert($0).inserted }.prefix(count)
            .map { name in
                guard CoreDataRecordNames.isRecordName(name) else { return name }
                return byKey.filter { $0.value == name }.map(\.key).min() ?? name
            }
    }

    /// Lower-case ASCII, single spaces, and `Last, First` turned into `first last`.
    static func normalise(_ text: String) -> String {
        var folded = Transliteration.ascii(text).lowercased()
        let parts = folded.split(separator: ",", omittingEmptySubsequences: true)
        if parts.count == 2 { folded = parts[1] + " " + parts[0] }
        return folded.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).joined(separator: " ")
    }
}

/// Which record type a field's name points to: `artist`, `artistID`, `artist_id`, `artistRef`,
/// `artistReference` → `Artist`; for lists the plural, `artists` → `Artist`. Case and `_` aside:
/// `content_type` → `Contenttype` (Django's model `contenttypes.contenttype`).
enum ReferenceNames {
    static let suffixes = ["Reference", "_reference", "Ref", "_ref", "ID", "Id", "_id", "_ID"]

    static func targetType(of field: String, among types: Set<String>, isList: Bool) -> String? {
        var base = field
        for suffix in suffixes where base.hasSuffix(suffix) && base.count > suffix.count {
            base = String(base.dropLast(suffix.count))
            break
        }
        var candidates = [base]
        if isList { candidates.insert(IdentifierMapping.singular(base), at: 0) }
        for candidate in candidates.map(folded) {
            if let type = types.first(where: { folded($0) == candidate }) { return type }
        }
        return nil
    }

    /// A name in lower case without `_`.
    private static func folded(_ name: String) -> String { name.lowercased().filter { $0 != "_" } }
}

/// The natural keys of a row: the fields that name things (`name`, `title`, `code`, `slug`, `key`,
/// `email`) and a person's name made of first and last name fields (`Mei Chen`).
enum NaturalKeys {
    static let fields = ["name", "title", "code", "slug", "key", "email"]
    static let firstNames = ["firstname", "first_name", "givenname", "given_name"]
    static let lastNames = ["lastname", "last_name", "familyname", "family_name", "surname"]

    /// Natural-key texts of a row by key: a field's name (`title`), or for a person's name a name
    /// template of the two fields (`{firstName} {lastName}`). `facts` gives a key's facts and is
    /// told the field's offset.
    static func keys(of fields: [SourceField], facts: (String, Int) -> ColumnRoles = { key, _ in ColumnRoles(of: key) })
        -> [(String, String)]
    {
        keys(of: fields, columns: fields.count, name: { fields[$0].key }, facts: { facts(fields[$0].key, $0) })
    }

    /// Natural-key texts of a record's first `columns` columns by key, each column's field name
    /// and facts given by `name` and `facts`.
    static func keys<Texts: NamingTexts>(
        of record: Texts, columns: Int, name: (Int) -> String, facts: (Int) -> ColumnRoles
    ) -> [(String, String)] {
        var result: [(String, String)] = []
        var first: (String, String)?
        var last: (String, String)?
        for column in 0..<columns {
            guard let role = facts(column).naturalKeyRole, let text = record.namingText(column) else { continue }
            switch role {
            case .key: result.append((name(column), text))
            case .firstName: first = (name(column), text)
            case .lastName: last = (name(column), text)
            }
        }
        if let first, let last { result.append(("{\(first.0)} {\(last.0)}", "\(first.1) \(last.1)")) }
        return result
    }
}

/// Natural keys written as lists, as a Django fixture writes a foreign key with natural keys:
/// `"user": ["book_admin"]` for the User whose username is that, `"content_type": ["books",
/// "category"]` for the ContentType of that app label and model. The list's texts are one key,
/// found among the texts of a record's consecutive fields.
enum NaturalKeyLists {
    /// The most texts such a key holds: Django's own models use at most three.
    static let longest = 3

    /// What separates a key's texts in the one text the reference index keys it by.
    private static let separator: Character = "\u{1F}"

    /// The key a list of one to ``longest`` texts makes, `nil` for any other list.
    static func key(of items: [PlainValue]) -> String? {
        guard (1...longest).contains(items.count) else { return nil }
        var texts: [String] = []
        for item in items {
            switch item {
            case .string(let text), .text(let text): texts.append(text)
            default: return nil
            }
        }
        return texts.joined(separator: String(separator))
    }

    /// A key as the user wrote it, for messages: `["books", "category"]`.
    static func written(_ key: String) -> String {
        "["
            + key.split(separator: separator, omittingEmptySubsequences: false).map { "\"\($0)\"" }
            .joined(separator: ", ") + "]"
    }

    /// The keys a row can be found by: the texts of each run of up to `length` consecutive text fields.
    static func keys(of fields: [SourceField], upTo length: Int) -> [String] {
        var keys: [String] = []
        for start in fields.indices {
            var texts: [PlainValue] = []
            for field in fields[start...].prefix(length) {
                texts.append(field.value)
                guard let key = key(of: texts) else { break }
                keys.append(key)
            }
        }
        return keys
    }
}
