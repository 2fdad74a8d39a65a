import CloudSeedCore

/// The rules CloudKit applies to a field's options and encryption, shared by the parser (which reports
/// them at their place in the text) and ``SchemaDefinition/validate()``.
extension FieldDefinition {
    /// Why a field of `type` cannot have `option`, or `nil` when it can.
    ///
    /// CloudKit keeps no index on encrypted fields or assets, and a text search index only on strings:
    ///
    /// ```swift
    /// FieldDefinition.rejection(of: .searchable, type: .int64, isEncrypted: false)
    /// // "SEARCHABLE applies only to STRING and LIST<STRING> fields"
    /// ```
    package static func rejection(of option: Option, type: FieldDataType, isEncrypted: Bool) -> String? {
        if isEncrypted { return "encrypted fields cannot be indexed" }
        if type == .asset || type == .list(.asset) { return "ASSET fields cannot be indexed" }
        if option == .searchable, type != .string, type != .list(.string) {
            return "SEARCHABLE applies only to STRING and LIST<STRING> fields"
        }
        return nil
    }

    /// The options a field of `type` may have, in print order.
    package static func allowedOptions(type: FieldDataType, isEncrypted: Bool) -> [Option] {
        Option.allCases.filter { rejection(of: $0, type: type, isEncrypted: isEncrypted) == nil }
    }

    /// Why `ENCRYPTED` cannot precede `type`, or `nil` when it can.
    package static func encryptionRejection(type: FieldDataType) -> String? {
        if case .primitive(let primitive) = type, PrimitiveType.encryptable.contains(primitive) { return nil }
        return "ENCRYPTED applies only to BYTES, DOUBLE, INT64, LOCATION, STRING and TIMESTAMP"
    }

    /// Everything wrong with this field on its own: its name, a system field's type, encryption, options.
    package var problems: [String] {
        var problems: [String] = []
        if let system = Self.systemField(named: name) {
            if type != system.type || isEncrypted {
                problems.append("the system field \(CKSLName.spelling(name)) is \(system.type), not \(typeDeclaration)")
            }
        } else if name.hasPrefix("_") {
            problems.append("names starting with \"_\" are reserved for system fields")
        } else if let problem = CKSLName.identifierProblem(name) {
            problems.append(problem)
        }
        if isEncrypted, let problem = Self.encryptionRejection(type: type) { problems.append(problem) }
        for option in sortedOptions {
            if let reason = Self.rejection(of: option, type: type, isEncrypted: isEncrypted) {
                problems.append("\(option): \(reason)")
            }
        }
        return problems
    }
}
