/// Splits `Type.field` into its record type (if any) and field.
func splitQualified(_ text: String) -> (recordType: String?, field: String) {
    guard let dot = text.firstIndex(of: ".") else { return (nil, text) }
    return (String(text[..<dot]), String(text[text.index(after: dot)...]))
}

/// `--reference [Type.]field[:Target][:DELETE_SELF]`: a field that points to records of another type.
///
/// ```swift
/// try ReferenceDeclaration(parsing: "artist")                       // target inferred from the name
/// try ReferenceDeclaration(parsing: "Artwork.painter:Artist:DELETE_SELF")
/// ```
package struct ReferenceDeclaration: Hashable, Sendable {
    package var recordType: String?
    package var field: String
    /// The record type pointed to; `nil` takes it from the field's name.
    package var target: String?
    package var action: ReferenceAction

    package init(recordType: String? = nil, field: String, target: String? = nil, action: ReferenceAction = .none) {
        self.recordType = recordType
        self.field = field
        self.target = target
        self.action = action
    }

    package init(parsing text: String) throws {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        (recordType, field) = splitQualified(parts[0])
        target = nil
        action = .none
        for part in parts.dropFirst() {
            if let parsed = ReferenceAction(rawValue: part.uppercased()) {
                action = parsed
            } else if IdentifierMapping.isValid(part) {
                target = part
            } else {
                throw CloudSeedError(
                    .invalidOption,
                    "\(option: .reference(nil)) '\(text)': '\(part)' is neither a record type nor NONE or DELETE_SELF")
            }
        }
        guard IdentifierMapping.isValid(field) else {
            throw CloudSeedError(
                .invalidOption,
                "\(option: .reference(nil)) '\(text)' needs a field name, as artist or Artwork.artist:Artist")
        }
    }
}

/// `--location [Type.]field=LATCOL,LONCOL` or `--location field=COL` (one column holding `"lat,lon"`).
package struct LocationDeclaration: Hashable, Sendable {
    package var recordType: String?
    package var field: String
    /// The source keys of latitude and longitude, or a single key holding both.
    package var columns: [String]

    package init(recordType: String? = nil, field: String, columns: [String]) {
        self.recordType = recordType
        self.field = field
        self.columns = columns
    }

    package init(parsing text: String) throws {
        guard let equals = text.firstIndex(of: "=") else {
            throw CloudSeedError(
                .invalidOption, "\(option: .location(nil)) '\(text)' needs FIELD=LATCOL,LONCOL or FIELD=COL")
        }
        (recordType, field) = splitQualified(String(text[..<equals]))
        columns = text[text.index(after: equals)...].split(separator: ",").map(String.init)
        guard IdentifierMapping.isValid(field), (1...2).contains(columns.count) else {
            throw CloudSeedError(
                .invalidOption, "\(option: .location(nil)) '\(text)' needs FIELD=LATCOL,LONCOL or FIELD=COL")
        }
    }
}

/// `--attribute [Entity.]key=attribute`: the attribute or relationship of the app's model a key
/// is, where its name does not say (`--attribute Trip.when=startDate`).
package struct AttributeMatch: Hashable, Sendable {
    package var entity: String?
    package var key: String
    package var property: String

    package init(parsing text: String) throws {
        guard let equals = text.firstIndex(of: "="), !text[text.index(after: equals)...].isEmpty else {
            throw CloudSeedError(
                .invalidOption, "\(option: .attribute(nil)) '\(text)' needs KEY=ATTRIBUTE, as Trip.when=startDate")
        }
        (entity, key) = splitQualified(String(text[..<equals]))
        property = String(text[text.index(after: equals)...])
    }
}
