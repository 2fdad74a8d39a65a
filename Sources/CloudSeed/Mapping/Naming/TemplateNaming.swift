/// A name template's pieces, in order: literal text, and the fields it names (by key in a row, by
/// column in a header's records).
package enum TemplatePart<Field: Hashable & Sendable>: Hashable, Sendable {
    case text(String)
    case field(Field)
}

/// Fills a name template (`"{catalogNumber} {lastName}, {firstName}"` → `115 Chen, Mei`): the one
/// way a template names a row, read whole or as cells.
enum TemplateNaming {
    /// The pieces of `template`: a field is a name in braces; a brace that closes nothing is text.
    static func parts(of template: String) -> [TemplatePart<String>] {
        var parts: [TemplatePart<String>] = []
        var text = ""
        var field: String?
        for character in template {
            if character == "{" {
                if let open = field { text += "{" + open }
                field = ""
            } else if character == "}", let name = field {
                if !text.isEmpty { parts.append(.text(text)) }
                parts.append(.field(name))
                (text, field) = ("", nil)
            } else if field != nil {
                field!.append(character)
            } else {
                text.append(character)
            }
        }
        if let open = field { text += "{" + open }
        if !text.isEmpty { parts.append(.text(text)) }
        return parts
    }

    /// The template filled with each field's text; `nil` where `text` has none for a field it names.
    static func fill<Field>(_ parts: [TemplatePart<Field>], _ text: (Field) -> String?) -> String? {
        var result = ""
        for part in parts {
            switch part {
            case .text(let literal): result += literal
            case .field(let field):
                guard let value = text(field) else { return nil }
                result += value
            }
        }
        return result
    }

    /// The filled template, or `nil` when the row lacks a field it names.
    static func text(of row: PreparedRow, template: NameTemplate) -> String? {
        fill(template.parts) { placeholder in
            (row.templateValues[placeholder] ?? row.templateValues[IdentifierMapping.identifier(for: placeholder)])
                .flatMap(\.namingText)
        }
    }
}
