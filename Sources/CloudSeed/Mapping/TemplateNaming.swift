/// Fills a name template (`"{catalogNumber} {lastName}, {firstName}"` → `115 Chen, Mei`) from a row.
enum TemplateNaming {
    /// The filled template, or `nil` when the row lacks a field it names.
    static func text(of row: PreparedRow, template: String) -> String? {
        var result = template
        for placeholder in NameTemplate(template: template).placeholders {
            guard
                let value = row.templateValues[placeholder]
                    ?? row.templateValues[IdentifierMapping.identifier(for: placeholder)],
                let text = RecordNaming.text(of: value)
            else { return nil }
            result = result.replacingOccurrences(of: "{\(placeholder)}", with: text)
        }
        return result
    }
}
