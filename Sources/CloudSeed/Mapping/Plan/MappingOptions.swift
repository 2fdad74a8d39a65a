/// The choices a user pins down instead of letting the heuristics decide.
public struct MappingOptions: Sendable {
    /// The record type of single-type sources (`--type`); otherwise taken from the file name.
    public var recordType: String?
    /// Name templates (`--name-template`), each for one record type or for all.
    public var nameTemplates: [NameTemplate]
    /// Field types (`--field`), each for one record type or for all.
    public var fieldTypes: [FieldTypeOverride]
    /// Keep arrays of dictionaries as JSON text instead of child records (`--nested-as-json`).
    public var nestedAsJSON: Bool
    /// How CSV sources are laid out (`--delimiter`, `--header`, `--columns`).
    package var csv = CSVOptions()
    /// Declared references (`--reference`).
    package var references: [ReferenceDeclaration] = []
    /// Declared locations made of columns (`--location`).
    package var locations: [LocationDeclaration] = []
    /// How dates written in numbers are read (`--date-format`), for one field or for all.
    package var dateFormats: [DateFormatPin] = []
    /// The zone of dates and times written without one (`--timezone`); `nil` is UTC.
    package var timeZone: TimeZoneChoice?
    /// Keep references whose target does not exist, as CloudKit allows for NONE, and leave out
    /// asset files that do not exist (`--allow-dangling`).
    public var allowDangling = false
    /// Where relative asset paths start, instead of each source's folder (`--assets-dir`).
    public var assetsFolder: String?
    /// Let asset paths leave their folder (`--allow-outside-assets`).
    public var allowOutsideAssets = false
    /// Name records with random UUIDs instead of deterministic names (`--uuid`).
    public var randomNames = false
    /// Leave out rows with errors, reporting each, instead of failing the run (`--skip-bad-rows`).
    public var skipBadRows = false
    /// Counts the bytes read, for a progress bar.
    package var progress: ProgressMeter?
    /// The app's model rows are read as objects of (`--model`).
    package private(set) var modelMapping: ModelMapping?
    /// Names the app's objects as records of `container` (their names derive from it).
    package mutating func nameObjects(in container: String) {
        modelMapping?.container = container
    }

    /// Keys pinned to an attribute or relationship of the app's model (`--attribute`).
    package var attributeMatches: [AttributeMatch] = []

    /// Reads rows as objects of `model`'s entities (of `configuration`, else those synced with
    /// CloudKit), written as Core Data writes them to CloudKit (`--model`). Throws where the model
    /// breaks CloudKit's rules.
    public mutating func readRows(asObjectsOf model: AppModel, configuration: String? = nil) throws {
        modelMapping = try ModelMapping(model: model, configuration: configuration)
    }

    public init(
        recordType: String? = nil, nameTemplates: [NameTemplate] = [], fieldTypes: [FieldTypeOverride] = [],
        nestedAsJSON: Bool = false
    ) {
        self.recordType = recordType
        self.nameTemplates = nameTemplates
        self.fieldTypes = fieldTypes
        self.nestedAsJSON = nestedAsJSON
    }

    func reference(_ field: String, in recordType: String) -> ReferenceDeclaration? {
        references.first { $0.recordType == recordType && $0.field == field }
            ?? references.first { $0.recordType == nil && $0.field == field }
    }

    func locations(for recordType: String) -> [LocationDeclaration] {
        locations.filter { $0.recordType == nil || $0.recordType == recordType }
    }

    func template(for recordType: String) -> NameTemplate? {
        nameTemplates.first { $0.recordType == recordType } ?? nameTemplates.first { $0.recordType == nil }
    }

    /// The `--date-format` for a field: the one naming its type and field, else its field, else every field.
    func dateFormat(_ field: String, in recordType: String) -> DateFormatPin? {
        dateFormats.first { $0.recordType == recordType && $0.field == field }
            ?? dateFormats.first { $0.recordType == nil && $0.field == field }
            ?? dateFormats.first { $0.field == nil }
    }

    /// The attribute or relationship `--attribute` makes the field `field` of rows of `recordType`.
    func attributeMatch(_ field: String, in recordType: String) -> String? {
        (attributeMatches.first { $0.entity == recordType && $0.key == field }
            ?? attributeMatches.first { $0.entity == nil && $0.key == field })?.property
    }

    func fieldType(_ field: String, in recordType: String) -> FieldType? {
        (fieldTypes.first { $0.recordType == recordType && $0.field == field }
            ?? fieldTypes.first { $0.recordType == nil && $0.field == field })?.type
    }
}

/// `--field [Type.]name:TYPE`: the type of a field, overriding inference.
public struct FieldTypeOverride: Hashable, Sendable {
    public var recordType: String?
    public var field: String
    public var type: FieldType

    public init(recordType: String? = nil, field: String, type: FieldType) {
        self.recordType = recordType
        self.field = field
        self.type = type
    }

    /// Reads `price:DOUBLE`, `Artwork.image:ASSET` or `tags:LIST<STRING>`.
    public init(parsing text: String) throws {
        guard let colon = text.firstIndex(of: ":") else {
            throw CloudSeedError(
                .invalidOption,
                "\(option: .fieldType(nil)) '\(text)' needs NAME:TYPE, as price:DOUBLE or Artwork.image:ASSET")
        }
        let target = String(text[..<colon])
        let typeName = String(text[text.index(after: colon)...])
        guard let type = FieldType(name: typeName) else {
            throw CloudSeedError(
                .invalidOption,
                "\(option: .fieldType(nil)) '\(text)': unknown type '\(typeName)'; use STRING, INT64, DOUBLE, BYTES, TIMESTAMP, LOCATION, REFERENCE, ASSET or LIST<T>"
            )
        }
        (recordType, field) = splitQualified(target)
        self.type = type
        guard IdentifierMapping.isValid(field), recordType.map(IdentifierMapping.isValid) ?? true else {
            throw CloudSeedError(
                .invalidOption,
                "\(option: .fieldType(nil)) '\(text)': names start with a letter and hold letters, digits and '_'")
        }
    }
}

/// `--name-template [Type=]"{a} {b}"`: how records are named from their fields.
///
/// ```swift
/// try NameTemplate(parsing: "Artwork={catalogNumber} {lastName}, {firstName}")
/// // names a row {catalogNumber: 115, firstName: Mei, lastName: Chen} "115 Chen, Mei"
/// ```
public struct NameTemplate: Hashable, Sendable {
    public var recordType: String?
    /// The template as written; ``parts`` follow it.
    public var template: String {
        didSet { parts = TemplateNaming.parts(of: template) }
    }
    /// The template's pieces, read once: literal text and the fields it names.
    package private(set) var parts: [TemplatePart<String>]

    public init(recordType: String? = nil, template: String) {
        self.recordType = recordType
        self.template = template
        parts = TemplateNaming.parts(of: template)
    }

    public init(parsing text: String) throws {
        if let equals = text.firstIndex(of: "="), let brace = text.firstIndex(of: "{"), equals < brace {
            self.init(recordType: String(text[..<equals]), template: String(text[text.index(after: equals)...]))
        } else {
            self.init(template: text)
        }
        guard !placeholders.isEmpty else {
            throw CloudSeedError(
                .invalidOption,
                "\(option: .nameTemplate(nil)) '\(text)' names no field; write fields in braces, as \"{firstName} {lastName}\""
            )
        }
    }

    /// The field keys the template names, in order.
    package var placeholders: [String] {
        parts.compactMap { part in
            if case .field(let name) = part { name } else { nil }
        }
    }
}
