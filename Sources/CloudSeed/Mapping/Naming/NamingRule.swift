/// How a record type's records get their names, in the order the rules are tried: what the plan
/// prints after "named by" (`Artwork: named by the 'recordName' column`).
package enum NamingRule: Hashable, Sendable, CustomStringConvertible {
    /// `--name-template "{firstName} {lastName}"`.
    case template(NameTemplate)
    /// Names the source itself gives: CloudKit's `recordName`, or the keys of a dictionary of records.
    case fromSource
    /// A column named `recordName`, `___recordID`, `recordID`, `id`, `_id` (MongoDB's) or `uuid`.
    case column(String)
    /// A name column whose ids number each type's records on their own (json-server's `id`, a
    /// relational CSV set's): `Type-id` (`Dish-0`), so that they do not collide with another type's.
    case qualifiedColumn(String)
    /// `Type-N`: the record type and the row's position among its type's rows in its source.
    case position
    /// Child records from an array inside a parent: `parent name-key-N` (`Premier League-teams-3`).
    case parent
    /// A natural key whose values are unique: `name`, `title`, `code`, `slug`, `key`, `email`, or
    /// first and last name (`Mei Chen`).
    case naturalKey(String)
    /// Random UUIDs, on request (`--uuid`).
    case uuid
    /// A many-to-many link of an app's objects (`CDMR`): a UUID made from the two it links.
    case linkedPair

    /// The `--name-template` that gives the same names, where there is one.
    package var pinningTemplate: String? {
        switch self {
        case .template(let template): template.template
        case .naturalKey(let key): key.hasPrefix("{") ? key : "{\(key)}"
        case .column(let column): "{\(column)}"
        default: nil
        }
    }

    /// The name a row's own name (``PreparedRow/ownName``) gives a record of `type`.
    func ownName(_ name: String?, of type: String) -> String? {
        guard case .qualifiedColumn = self, let name else { return name }
        return "\(type)-\(name)"
    }

    package var description: String { text.description }

    /// The rule in words, naming the option that picks it where there is one.
    package var text: OptionText {
        switch self {
        case .template(let template): "the name template \"\(template.template)\""
        case .fromSource: "record names given by the source"
        case .column(let column): "the '\(column)' column"
        case .qualifiedColumn(let column):
            "the '\(column)' column, after the type (Type-\(column)), as other types' ids are alike"
        case .position: "record type and position in the source (Type-1, Type-2, …)"
        case .parent: "the parent record's name, the key it is under and its place there (a position, or its own key)"
        case .naturalKey(let key): "the natural key \(key.hasPrefix("{") ? key : "{\(key)}"), unique in every row"
        case .uuid: "random UUIDs (\(option: .randomNames))"
        case .linkedPair: "UUIDs made from the record names of the two objects linked"
        }
    }
}
