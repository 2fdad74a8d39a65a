/// A setting of a run that a message names, often as what fixes an error. The library words it as
/// its API does (``libraryWording``); the command line words it as the flag that sets it.
package enum RunOption: Hashable, Sendable {
    /// Where the store is.
    case store
    /// The container identifier.
    case container
    /// A container environment, by name.
    case environment(String)
    /// A database, by name.
    case database(String)
    /// A record zone, by name.
    case zone(String)
    /// The user who acts.
    case user
    /// The one record type a run works on, when one is named.
    case recordType(String?)
    /// The folder a backup goes to.
    case output
    /// Restoring over the records a store holds.
    case merge
    /// Keeping references and assets whose target is missing.
    case allowDangling
    /// Reading asset files outside the source file's folder.
    case allowOutsideAssets
    /// Naming records by random UUIDs.
    case randomNames
    /// A name template, as `Type=TEMPLATE`, or none given.
    case nameTemplate(String?)
    /// A field's declared type, as `[Type.]field:TYPE`.
    case fieldType(String?)
    /// A reference declaration, as `[Type.]field[:Target][:ACTION]`.
    case reference(String?)
    /// A location declaration, as `FIELD=LATCOL,LONCOL`.
    case location(String?)
    /// A date format, as `[Type.]field=FORMAT` or `FORMAT`, or none given.
    case dateFormat(String?)
    /// The attribute or relationship of an app's model a key is, as `[Entity.]key=attribute`.
    case attribute(String?)
    /// The time zone of dates written without one.
    case timeZone(String?)
    /// A query filter, as `FIELD [NOT] OP VALUE`.
    case filter(String?)
    /// A save mode, by its name (`changed-keys`).
    case saveMode(String)
    /// An export of one record type's records, to look at them.
    case export(recordType: String)
    /// The list of what a store holds.
    case inventory
    /// Giving a user one of the schema's custom roles.
    case roleAssignment
    /// Making a schema file the development schema.
    case schemaImport
    /// Writing a backup bundle.
    case backup
    /// The settings of a run together, as what pins a plan's choices.
    case settings

    /// How the library's messages name the setting: by its place in the API.
    package var libraryWording: String {
        switch self {
        case .store: "ContainerStore(_:)"
        case .container: "BackupWriter.container"
        case .environment(let name): "the \(name) environment"
        case .database(let name): "the \(name) database"
        case .zone(let name): "the zone '\(name)'"
        case .user: "Importer.userRecordName"
        case .recordType(let type): type.map { "the record type '\($0)'" } ?? "the record type"
        case .output: "BackupWriter.write(to:)"
        case .merge: "Restorer.merge"
        case .allowDangling: "MappingOptions.allowDangling"
        case .allowOutsideAssets: "MappingOptions.allowOutsideAssets"
        case .randomNames: "MappingOptions.randomNames"
        case .nameTemplate(let template): template.map { "the name template '\($0)'" } ?? "MappingOptions.nameTemplates"
        case .fieldType(let text): text.map { "the field type '\($0)'" } ?? "the field type"
        case .reference(let text): text.map { "the reference declaration '\($0)'" } ?? "the reference declaration"
        case .location(let text): text.map { "the location declaration '\($0)'" } ?? "the location declaration"
        case .dateFormat(let text): text.map { "the date format '\($0)'" } ?? "the date format"
        case .attribute(let text): text.map { "the attribute match '\($0)'" } ?? "MappingOptions.attributeMatches"
        case .timeZone(let text): text.map { "the time zone '\($0)'" } ?? "the time zone"
        case .filter(let text): text.map { "the filter '\($0)'" } ?? "the filter"
        case .saveMode(let name): "the save mode \(name)"
        case .export(let type): "an export of the \(type) records"
        case .inventory: "the store's inventory"
        case .roleAssignment: "a role assignment"
        case .schemaImport: "a schema import"
        case .backup: "BackupWriter"
        case .settings: "options"
        }
    }
}

/// Text that names run options: each front end words them as its own when it prints the text.
///
/// Written as a string with options interpolated: `"fix the value, or pass \(option: .allowDangling)"`.
package struct OptionText: Hashable, Sendable, ExpressibleByStringInterpolation, CustomStringConvertible {
    fileprivate enum Part: Hashable, Sendable {
        case text(String)
        case option(RunOption)
    }

    /// The text and options in order, no two texts adjacent.
    private var parts: [Part] = []

    /// Text that names no option.
    package init(_ text: String) {
        parts.appendText(text)
    }

    package init(stringLiteral text: String) {
        self.init(text)
    }

    package init(stringInterpolation: StringInterpolation) {
        parts = stringInterpolation.parts
    }

    /// The text with each option worded by `wording`.
    package func worded(_ wording: (RunOption) -> String) -> String {
        var text = ""
        for part in parts {
            switch part {
            case .text(let words): text += words
            case .option(let option): text += wording(option)
            }
        }
        return text
    }

    /// The text as the library words it.
    package var description: String { worded { $0.libraryWording } }

    /// Texts are equal where the library words them the same, however they were put together.
    package static func == (lhs: OptionText, rhs: OptionText) -> Bool {
        lhs.description == rhs.description
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(description)
    }

    package static func + (lhs: OptionText, rhs: OptionText) -> OptionText {
        var joined = lhs
        joined += rhs
        return joined
    }

    package static func += (lhs: inout OptionText, rhs: OptionText) {
        lhs.parts.appendJoining(rhs.parts)
    }

    package struct StringInterpolation: StringInterpolationProtocol {
        fileprivate var parts: [Part] = []

        package init(literalCapacity: Int, interpolationCount: Int) {}

        package mutating func appendLiteral(_ literal: String) {
            parts.appendText(literal)
        }

        package mutating func appendInterpolation(option: RunOption) {
            parts.append(.option(option))
        }

        package mutating func appendInterpolation(_ value: some CustomStringConvertible) {
            parts.appendText(value.description)
        }

        package mutating func appendInterpolation(_ text: OptionText) {
            parts.appendJoining(text.parts)
        }
    }
}

extension [OptionText.Part] {
    /// Appends `text`, joining it to a text before it.
    fileprivate mutating func appendText(_ text: String) {
        guard !text.isEmpty else { return }
        if case .text(let before)? = last {
            self[count - 1] = .text(before + text)
        } else {
            append(.text(text))
        }
    }

    /// Appends `parts`, joining a text at their start to a text before it.
    fileprivate mutating func appendJoining(_ parts: [OptionText.Part]) {
        for part in parts {
            switch part {
            case .text(let text): appendText(text)
            case .option: append(part)
            }
        }
    }
}
