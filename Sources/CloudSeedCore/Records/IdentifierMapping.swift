/// Maps source keys and file names to CloudKit identifiers: a letter first, then letters, digits and `_`.
///
/// ```swift
/// IdentifierMapping.identifier(for: "Date Added")        // "Date_Added"
/// IdentifierMapping.identifier(for: "Libellé")           // "Libelle"
/// IdentifierMapping.identifier(for: "wagtailcore.page")  // "wagtailcore_page"
/// IdentifierMapping.recordType(forFileStem: "ToDoItems") // "ToDoItem"
/// ```
package enum IdentifierMapping {
    /// The longest identifier CloudKit accepts for a type or field name.
    package static let maximumLength = 255

    /// Whether `name` is a valid CloudKit type or field name as it stands.
    package static func isValid(_ name: String) -> Bool {
        guard let first = name.utf8.first, isLetter(first), name.utf8.count <= maximumLength else { return false }
        return name.utf8.allSatisfy { isLetter($0) || isDigit($0) || $0 == UInt8(ascii: "_") }
    }

    /// The identifier for a source key: transliterated to ASCII, other characters replaced by `_`,
    /// runs of `_` folded, and `field_` put in front when it would not start with a letter.
    package static func identifier(for key: String) -> String {
        if isValid(key) { return key }
        var result = ""
        var lastWasUnderscore = false
        for byte in Transliteration.ascii(key).utf8 {
            if isLetter(byte) || isDigit(byte) {
                result.append(Character(UnicodeScalar(byte)))
                lastWasUnderscore = false
            } else if !lastWasUnderscore, !result.isEmpty {
                result.append("_")
                lastWasUnderscore = true
            }
        }
        while result.hasSuffix("_") { result.removeLast() }
        if result.isEmpty || !isLetter(result.utf8.first!) { result = "field_" + result }
        return String(result.prefix(maximumLength))
    }

    /// The rule every type and field name follows, as errors quote it.
    package static let rule =
        "CloudKit identifiers start with a letter (a-z, A-Z) and hold only letters, digits and '_'"

    /// The record type a document names (a CloudKit `recordType`, a key, a Django model label).
    ///
    /// A name made of words, digits and the separators space, `-` and `.` is mapped like a key
    /// (`wagtailcore.page` → `wagtailcore_page`); one with quotes, semicolons or other punctuation is
    /// refused rather than mapped, since it is no name a person would give a type
    /// (`Artwork"; DROP TABLE x; --`).
    package static func recordTypeName(for given: String, at position: SourcePosition) throws -> String {
        if isValid(given) { return given }
        guard !given.isEmpty,
            given.unicodeScalars.allSatisfy({
                $0.properties.isAlphabetic || ("0"..."9").contains($0) || " _-.".unicodeScalars.contains($0)
            })
        else {
            throw CloudSeedError(
                .invalidOption, "the record type name '\(given)' is refused: \(rule); rename the type", at: position)
        }
        return identifier(for: given)
    }

    /// A record type name from a file name: singular, first letter capitalised (`artworks` → `Artwork`).
    package static func recordType(forFileStem stem: String) -> String {
        let name = identifier(for: singular(stem))
        return name.prefix(1).uppercased() + name.dropFirst()
    }

    /// The English singular of a plural word, for the common regular forms.
    package static func singular(_ word: String) -> String {
        let lower = word.lowercased()
        if lower.hasSuffix("ies"), word.count > 3 { return word.dropLast(3) + (word.last!.isUppercase ? "Y" : "y") }
        for ending in ["sses", "xes", "ches", "shes", "zzes"] where lower.hasSuffix(ending) {
            return String(word.dropLast(2))
        }
        if lower.hasSuffix("s"), !lower.hasSuffix("ss"), !lower.hasSuffix("us"), !lower.hasSuffix("is"), word.count > 1
        {
            return String(word.dropLast())
        }
        return word
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
}
