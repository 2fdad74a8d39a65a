import CloudSeedCore
import Foundation
import SwiftParser
import SwiftSyntax

/// Reads SwiftData `@Model` classes from Swift sources with swift-syntax: stored properties are
/// attributes or relationships, as SwiftData's macro makes them.
enum SwiftDataModelFiles {
    /// The model the `@Model` classes of `files` declare.
    static func read(_ files: [String]) throws -> AppModel {
        var classes: [(ClassDeclSyntax, SourceLocationConverter, String)] = []
        for file in files {
            guard let data = FileManager.default.contents(atPath: file) else {
                throw CloudSeedError(.fileAccess, "cannot read this Swift file", at: SourcePosition(file: file))
            }
            let tree = Parser.parse(source: String(decoding: data, as: UTF8.self))
            let finder = ModelClassFinder(viewMode: .sourceAccurate)
            finder.walk(tree)
            let converter = SourceLocationConverter(fileName: file, tree: tree)
            classes += finder.classes.map { ($0, converter, file) }
        }
        guard !classes.isEmpty else {
            throw CloudSeedError(
                .invalidOption,
                "no @Model class in these Swift sources; name the files that declare your SwiftData models",
                at: SourcePosition(file: files[0]))
        }
        let names = Set(classes.map { $0.0.name.text })
        var entities: [ModelEntity] = []
        var errors = ErrorCollector()
        for (declaration, converter, file) in classes {
            let reading = ClassReading(converter: converter, file: file, modelNames: names)
            let entity = reading.entity(declaration)
            if let earlier = entities.first(where: { $0.name == entity.name }) {
                try errors.record(
                    CloudSeedError(
                        .invalidSchema,
                        "a second @Model class \(entity.name) (the first is at \(earlier.position)); name the files of one schema version only",
                        at: entity.position))
                continue
            }
            entities.append(entity)
        }
        try errors.throwIfAny()
        return AppModel(entities: Self.pairingInverses(entities), isUsedWithCloudKit: true)
    }

    /// SwiftData needs an inverse named on one side only; Core Data's model has it on both.
    /// Where neither side names it, the one relationship each way between two classes is paired,
    /// as SwiftData infers it.
    private static func pairingInverses(_ entities: [ModelEntity]) -> [ModelEntity] {
        var entities = entities
        let declared = entities.flatMap { entity in
            entity.relationships.compactMap { relationship in
                relationship.inverseName.map { (relationship.destination, $0, entity.name, relationship.name) }
            }
        }
        for (destination, inverse, source, name) in declared {
            guard let index = entities.firstIndex(where: { $0.name == destination }),
                let other = entities[index].relationships.firstIndex(where: { $0.name == inverse }),
                entities[index].relationships[other].destination == source
            else { continue }
            if entities[index].relationships[other].inverseName == nil {
                entities[index].relationships[other].inverseName = name
            }
        }
        for index in entities.indices {
            for position in entities[index].relationships.indices
            where entities[index].relationships[position].inverseName == nil {
                let relationship = entities[index].relationships[position]
                let toHere = entities[index].relationships.filter { $0.destination == relationship.destination }
                guard toHere.count == 1,
                    let destination = entities.first(where: { $0.name == relationship.destination })
                else { continue }
                let back = destination.relationships.filter { $0.destination == entities[index].name }
                if back.count == 1, back[0].inverseName == nil || back[0].inverseName == relationship.name {
                    entities[index].relationships[position].inverseName = back[0].name
                }
            }
        }
        return entities
    }
}

/// Finds the classes marked `@Model`, at any depth (inside a `VersionedSchema` enum too).
private final class ModelClassFinder: SyntaxVisitor {
    var classes: [ClassDeclSyntax] = []

    override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind {
        if node.attributes.contains(where: { $0.attributeName(is: "Model") }) { classes.append(node) }
        return .visitChildren
    }
}

/// One `@Model` class read into an entity.
private struct ClassReading {
    let converter: SourceLocationConverter
    let file: String
    /// The names of every `@Model` class: a property of one of these types is a relationship.
    let modelNames: Set<String>

    func position(_ node: some SyntaxProtocol) -> SourcePosition {
        let location = node.startLocation(converter: converter)
        return SourcePosition(file: file, line: location.line, column: location.column)
    }

    func entity(_ declaration: ClassDeclSyntax) -> ModelEntity {
        let superclass = declaration.inheritanceClause?.inheritedTypes.first.map { $0.type.trimmedDescription }
        var entity = ModelEntity(
            name: declaration.name.text, parentName: superclass.flatMap { modelNames.contains($0) ? $0 : nil },
            position: position(declaration))
        for member in declaration.memberBlock.members {
            if let macro = member.decl.as(MacroExpansionDeclSyntax.self), macro.macroName.text == "Unique" {
                entity.uniquenessConstraints.append([macro.arguments.trimmedDescription])
            }
            guard let variable = member.decl.as(VariableDeclSyntax.self), isStored(variable) else { continue }
            for binding in variable.bindings {
                guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else { continue }
                read(name, binding: binding, of: variable, into: &entity)
            }
        }
        return entity
    }

    /// Whether `variable` is kept by SwiftData: not static, not computed, not `@Transient`.
    private func isStored(_ variable: VariableDeclSyntax) -> Bool {
        guard !variable.modifiers.contains(where: { ["static", "class"].contains($0.name.text) }),
            !variable.attributes.contains(where: { $0.attributeName(is: "Transient") })
        else { return false }
        return variable.bindings.allSatisfy { binding in
            switch binding.accessorBlock?.accessors {
            case nil: true
            case .getter?: false
            case .accessors(let accessors)?:
                accessors.allSatisfy { ["willSet", "didSet"].contains($0.accessorSpecifier.text) }
            }
        }
    }

    private func read(
        _ name: String, binding: PatternBindingSyntax, of variable: VariableDeclSyntax, into entity: inout ModelEntity
    ) {
        let written = SwiftTypeText(binding.typeAnnotation?.type.trimmedDescription ?? "")
        let initial = binding.initializer?.value
        let here = position(variable)
        let attributeOptions = variable.attributes.arguments(of: "Attribute")
        if let destination = written.element.flatMap({ modelNames.contains($0) ? $0 : nil }) {
            var relationship = ModelRelationship(name: name, destination: destination, position: here)
            relationship.isToMany = written.isCollection
            relationship.isOptional = written.isOptional
            let options = variable.attributes.arguments(of: "Relationship")
            for (label, value) in options {
                switch label {
                case "deleteRule":
                    let rule = value.split(separator: ".").last.map(String.init) ?? ""
                    relationship.deleteRule =
                        ["cascade": .cascade, "deny": .deny, "noAction": .noAction][rule] ?? .nullify
                case "inverse":
                    relationship.inverseName = value.split(separator: ".").last.map(String.init)
                default: continue
                }
            }
            entity.relationships.append(relationship)
            return
        }
        let type =
            attributeOptions.contains { $0.value.hasPrefix(".transformable") }
            ? .transformable : written.attributeType ?? Self.type(of: initial)
        var attribute = ModelAttribute(name: name, type: type, position: here)
        attribute.isOptional = written.isOptional
        attribute.isTransient = attributeOptions.contains { $0.value == ".ephemeral" }
        attribute.isEncrypted = attributeOptions.contains { $0.value == ".allowsCloudEncryption" }
        if attributeOptions.contains(where: { $0.value == ".unique" }) { entity.uniquenessConstraints.append([name]) }
        if let initial, !initial.is(NilLiteralExprSyntax.self) {
            attribute.defaultValue =
                initial.as(StringLiteralExprSyntax.self)?.representedLiteralValue ?? initial.trimmedDescription
        }
        entity.attributes.append(attribute)
    }

    /// The type of a property declared without one, from its initial value.
    private static func type(of initial: ExprSyntax?) -> AttributeType {
        guard let initial else { return .undefined }
        if initial.is(StringLiteralExprSyntax.self) { return .string }
        if initial.is(IntegerLiteralExprSyntax.self) { return .integer64 }
        if initial.is(FloatLiteralExprSyntax.self) { return .double }
        if initial.is(BooleanLiteralExprSyntax.self) { return .boolean }
        let text = initial.trimmedDescription
        if let prefix = initial.as(PrefixOperatorExprSyntax.self) {
            return prefix.expression.is(FloatLiteralExprSyntax.self) ? .double : .integer64
        }
        for (start, type) in [("Date", AttributeType.date), ("UUID", .uuid), ("URL", .uri), ("Data", .binary)]
        where text.hasPrefix(start + "(") || text.hasPrefix(start + ".") {
            return type
        }
        return .transformable
    }
}

/// A property's type as written (`[Tag]?`, `Optional<Date>`, `Foundation.UUID`), read as text.
private struct SwiftTypeText {
    /// The type without its optional marks.
    var base: String
    var isOptional = false

    init(_ text: String) {
        var base = text.filter { !$0.isWhitespace }
        while true {
            if base.hasSuffix("?") || base.hasSuffix("!") {
                base.removeLast()
                isOptional = true
            } else if base.hasPrefix("Optional<"), base.hasSuffix(">") {
                base = String(base.dropFirst("Optional<".count).dropLast())
                isOptional = true
            } else {
                break
            }
        }
        self.base = base
    }

    /// Whether the type is an array or set.
    var isCollection: Bool {
        (base.hasPrefix("[") && base.hasSuffix("]") && !base.contains(":")) || base.hasPrefix("Array<")
            || base.hasPrefix("Set<")
    }

    /// The element of a collection, or the type itself, without a module's name.
    var element: String? {
        var element = base
        if base.hasPrefix("[") && base.hasSuffix("]") {
            element = String(base.dropFirst().dropLast())
        } else if let open = base.firstIndex(of: "<"), base.hasPrefix("Array<") || base.hasPrefix("Set<") {
            element = String(base[base.index(after: open)...].dropLast())
        }
        guard !element.isEmpty else { return nil }
        return element.split(separator: ".").last.map(String.init)
    }

    /// The attribute type SwiftData stores this Swift type as; Codable types and collections of
    /// values are kept encoded (BYTES); `nil` where no type was written.
    var attributeType: AttributeType? {
        guard !base.isEmpty else { return nil }
        let name = base.split(separator: ".").last.map(String.init) ?? base
        switch name {
        case "String", "Substring", "Character": return .string
        case "Int", "Int64", "UInt", "UInt64": return .integer64
        case "Int32", "UInt32": return .integer32
        case "Int16", "UInt16", "Int8", "UInt8": return .integer16
        case "Bool": return .boolean
        case "Double", "CGFloat", "TimeInterval": return .double
        case "Float": return .float
        case "Decimal": return .decimal
        case "Date": return .date
        case "Data": return .binary
        case "UUID": return .uuid
        case "URL": return .uri
        default: return .transformable
        }
    }
}

extension AttributeListSyntax.Element {
    /// Whether this is the attribute `@name` (or `@SwiftData.name`).
    fileprivate func attributeName(is name: String) -> Bool {
        guard case .attribute(let attribute) = self else { return false }
        let written = attribute.attributeName.trimmedDescription
        return written == name || written == "SwiftData." + name
    }
}

extension AttributeListSyntax {
    /// The arguments of the attribute `@name(...)`, each as its label and its text.
    fileprivate func arguments(of name: String) -> [(label: String?, value: String)] {
        for element in self where element.attributeName(is: name) {
            guard case .attribute(let attribute) = element, case .argumentList(let list)? = attribute.arguments else {
                return []
            }
            return list.map { ($0.label?.text, $0.expression.trimmedDescription) }
        }
        return []
    }
}
