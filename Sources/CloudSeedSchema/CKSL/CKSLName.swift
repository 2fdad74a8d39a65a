import CloudSeedCore

/// The naming rules of the CloudKit Schema Language: identifiers, reserved words, role names, and when
/// a name needs double quotes.
///
/// ```swift
/// CKSLName.spelling("title")          // title
/// CKSLName.spelling("grant")          // "grant"      (a reserved word)
/// CKSLName.spelling("___recordID")    // "___recordID" (a system name)
/// CKSLName.spelling("test role")      // "test role"
/// ```
package enum CKSLName {
    /// The words that must be double-quoted to be used as names, upper-cased; CKSL keywords are
    /// case-insensitive.
    package static let reservedWords: Set<String> = ["GRANT", "PREFERRED", "QUERYABLE", "SEARCHABLE", "SORTABLE"]

    /// The longest name CloudKit accepts, in characters.
    package static let maximumLength = 255

    /// The rule an identifier follows, for error messages.
    package static let identifierRule = #"a name starts with a letter and continues with letters, digits and "_""#

    /// The rule a quoted role name follows, for error messages.
    package static let roleNameRule = "a role name has 1 to 255 characters, none of them a control character"

    /// Whether `name` is a reserved word, in any case.
    package static func isReserved(_ name: String) -> Bool {
        reservedWords.contains(name.uppercased())
    }

    /// Why `name` is not a valid identifier (first `a-z`/`A-Z`, then `a-z A-Z 0-9 _`, at most 255
    /// characters), or `nil` when it is one.
    package static func identifierProblem(_ name: String) -> String? {
        let scalars = name.unicodeScalars
        if scalars.count > maximumLength { return "a name has at most \(maximumLength) characters" }
        guard let first = scalars.first, isLetter(first), scalars.allSatisfy(isIdentifierScalar) else {
            return identifierRule
        }
        return nil
    }

    /// Whether `name` may be written without quotes: an identifier that is not a reserved word.
    package static func isBare(_ name: String) -> Bool {
        identifierProblem(name) == nil && !isReserved(name)
    }

    /// Whether `name` is acceptable as a double-quoted role name (`"test role"`).
    package static func isQuotableRoleName(_ name: String) -> Bool {
        let scalars = name.unicodeScalars
        return (1...maximumLength).contains(scalars.count)
            && scalars.allSatisfy { $0 != "\"" && !isControl($0) }
    }

    /// `name` as CKSL writes it: bare when it is a plain identifier, in double quotes otherwise
    /// (reserved words, system names starting with `_`, role names with spaces).
    package static func spelling(_ name: String) -> String {
        isBare(name) ? name : "\"\(name)\""
    }

    private static func isLetter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
    }

    /// Whether `scalar` may appear in an identifier: `a-z A-Z 0-9 _`.
    package static func isIdentifierScalar(_ scalar: Unicode.Scalar) -> Bool {
        isLetter(scalar) || ("0"..."9").contains(scalar) || scalar == "_"
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F..<0xA0).contains(scalar.value)
    }
}
