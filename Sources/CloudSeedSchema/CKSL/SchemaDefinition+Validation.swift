import CloudSeedCore

/// A problem ``SchemaDefinition/validate()`` finds in a schema.
///
/// ```
/// error: Artwork.photo: QUERYABLE: ASSET fields cannot be indexed
/// warning: Artwork: lacks GRANT READ TO "_world", which a type needs in the public database
/// ```
package struct SchemaDiagnostic: Hashable, Sendable, CustomStringConvertible {
    /// How bad a problem is.
    package enum Severity: String, Hashable, Sendable {
        /// CloudKit would refuse the schema.
        case error
        /// CloudKit accepts the schema, but it may not do what you want.
        case warning
    }

    /// Whether CloudKit would refuse the schema.
    package var severity: Severity
    /// What the problem is about: `Artwork`, `Artwork.photo`, `role moderator`.
    package var subject: String
    /// What is wrong.
    package var message: String

    /// Creates a diagnostic.
    package init(_ severity: Severity, _ subject: String, _ message: String) {
        self.severity = severity
        self.subject = subject
        self.message = message
    }

    /// `error: Artwork.photo: QUERYABLE: ASSET fields cannot be indexed`.
    package var description: String {
        "\(severity.rawValue): \(subject): \(message)"
    }
}

extension SchemaDefinition {
    /// Checks what the CKSL grammar cannot: names, system field types, where `ENCRYPTED` and index options
    /// may go, that grants name existing roles, and (as warnings) that public-database types have the
    /// three default grants.
    ///
    /// ``CKSLParser`` refuses everything reported here as an error, so a parsed schema has warnings at
    /// most; a schema built in code may have both. The `Users` type every container has is exempt from
    /// the grant warning, as cktool exports it without `"_icloud"`.
    ///
    /// - Returns: The problems, errors and warnings in schema order; empty when there are none.
    package func validate() -> [SchemaDiagnostic] {
        var diagnostics: [SchemaDiagnostic] = []
        for role in roles {
            if role.hasPrefix("_") {
                diagnostics.append(
                    .init(.error, "role \(CKSLName.spelling(role))", "names starting with \"_\" belong to system roles")
                )
            } else if !CKSLName.isQuotableRoleName(role) {
                diagnostics.append(.init(.error, "role \(CKSLName.spelling(role))", CKSLName.roleNameRule))
            }
        }
        for recordType in recordTypes {
            diagnostics += diagnose(recordType)
        }
        return diagnostics
    }

    private func diagnose(_ recordType: RecordTypeDefinition) -> [SchemaDiagnostic] {
        var diagnostics: [SchemaDiagnostic] = []
        let subject = recordType.name
        if let problem = CKSLName.identifierProblem(recordType.name) {
            diagnostics.append(.init(.error, subject, problem))
        }
        for field in recordType.fields {
            diagnostics += field.problems.map { .init(.error, "\(subject).\(field.name)", $0) }
        }
        for grant in recordType.grants where !grant.role.isSystemRole && !roles.contains(grant.role.name) {
            diagnostics.append(.init(.error, subject, "\(grant) names a role that no CREATE ROLE creates"))
        }
        guard recordType.name != "Users" else { return diagnostics }
        for required in Grant.publicDatabaseDefaults
        where !required.permissions.isSubset(of: recordType.permissions(of: required.role)) {
            diagnostics.append(.init(.warning, subject, "lacks \(required), which a type needs in the public database"))
        }
        return diagnostics
    }
}
