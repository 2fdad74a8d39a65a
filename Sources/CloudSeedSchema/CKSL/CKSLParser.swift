import CloudSeedCore

/// Reads CloudKit Schema Language text, as `cktool export-schema` writes it or as people write it by
/// hand, into a ``SchemaDefinition``.
///
/// ```swift
/// let schema = try CKSLParser.parse("""
///     DEFINE SCHEMA
///         RECORD TYPE Artist (
///             name STRING QUERYABLE,
///             GRANT READ TO "_world"
///         );
///     """, file: "schema.ckdb")
/// ```
///
/// The grammar is Apple's: keywords in any case, `//`, `--` and `/* */` comments, names in double quotes
/// when they are reserved words or system names. It is lenient where hand-written files commonly
/// differ from exports: the last `;` and a comma before `)` may be left out or added, and several
/// grants to one role are merged. It adds the system fields a type leaves out.
///
/// A recursive-descent parser without recursion: the grammar nests only `LIST<…>`, one level deep.
package struct CKSLParser {
    private let source: CKSLSource
    private let tokens: [CKSLToken]
    private var index = 0

    private init(source: CKSLSource, tokens: [CKSLToken]) {
        self.source = source
        self.tokens = tokens
    }

    /// Parses `text`, read from `file`.
    ///
    /// - Parameters:
    ///   - text: CKSL text starting with `DEFINE SCHEMA`.
    ///   - file: The file name errors give, as the user named it.
    /// - Returns: The schema, with every record type's missing system fields added.
    /// - Throws: ``CloudSeedError`` at the first problem, described as
    ///   `FILE:LINE:COLUMN: expected X, found Y`, then the source line and a caret under the column.
    ///   Besides syntax, the parser refuses duplicate roles, types and fields, names that break the
    ///   identifier rules, a system field with another type, grants to roles no `CREATE ROLE` creates,
    ///   and options CloudKit does not allow (see ``SchemaDefinition/validate()``).
    package static func parse(_ text: String, file: String = "-") throws -> SchemaDefinition {
        let source = CKSLSource(text: text, file: file)
        var parser = CKSLParser(source: source, tokens: try CKSLLexer.tokens(of: source))
        return try parser.parseSchema()
    }

    // MARK: Statements

    private mutating func parseSchema() throws -> SchemaDefinition {
        try expectKeyword("DEFINE", describedAs: "DEFINE SCHEMA")
        try expectKeyword("SCHEMA")
        var roles: [String: CKSLToken] = [:]
        var recordTypes: [String: (definition: RecordTypeDefinition, token: CKSLToken)] = [:]
        var grantedRoles: [(role: Grant.Role, token: CKSLToken)] = []
        while current.kind != .end {
            if current.isKeyword("CREATE") {
                advance()
                try expectKeyword("ROLE")
                let token = current
                let name = try parseRoleName(declaring: true).name
                if let first = roles[name] {
                    throw duplicate("role \(CKSLName.spelling(name))", at: token, first: first)
                }
                roles[name] = token
            } else if current.isKeyword("RECORD") {
                advance()
                try expectKeyword("TYPE")
                let token = current
                let name = try parseTypeName()
                if let first = recordTypes[name] {
                    throw duplicate("record type \(CKSLName.spelling(name))", at: token, first: first.token)
                }
                let (definition, grants) = try parseRecordBody(named: name)
                recordTypes[name] = (definition, token)
                grantedRoles += grants
            } else {
                throw failure(expected: "CREATE ROLE, RECORD TYPE or end of file")
            }
            if current.isSymbol(";") {
                advance()
            } else if current.kind != .end {
                throw failure(expected: #"";""#)
            }
        }
        for (role, token) in grantedRoles where !role.isSystemRole && roles[role.name] == nil {
            throw failure(.invalidSchema, expected: Self.roleExpectation, at: token)
        }
        return SchemaDefinition(roles: Array(roles.keys), recordTypes: recordTypes.values.map(\.definition))
    }

    /// Reads `( field, …, GRANT …, … )` after a type's name; returns the type and the roles its grants name.
    private mutating func parseRecordBody(named name: String) throws -> (
        RecordTypeDefinition, [(Grant.Role, CKSLToken)]
    ) {
        try expectSymbol("(")
        var fields: [String: (definition: FieldDefinition, token: CKSLToken)] = [:]
        var grants: [(grant: Grant, token: CKSLToken)] = []
        while !current.isSymbol(")") {
            if current.isKeyword("GRANT") {
                grants.append(try parseGrant())
            } else {
                let token = current
                let fieldName = try parseFieldName()
                if let first = fields[fieldName] {
                    let field = "field \(CKSLName.spelling(fieldName)) in record type \(CKSLName.spelling(name))"
                    throw duplicate(field, at: token, first: first.token)
                }
                fields[fieldName] = (try parseFieldDeclaration(named: fieldName), token)
            }
            if current.isSymbol(",") { advance() }
        }
        advance()
        let definition = RecordTypeDefinition(
            name: name, fields: fields.values.map(\.definition), grants: grants.map(\.grant))
        return (definition, grants.map { ($0.grant.role, $0.token) })
    }

    /// Reads `GRANT READ, WRITE TO role`, up to the `,` or `)` that follows it.
    private mutating func parseGrant() throws -> (Grant, CKSLToken) {
        advance()
        var permissions: Set<Grant.Permission> = []
        while true {
            let remaining = Grant.Permission.allCases.filter { !permissions.contains($0) }
            let expectation = Self.listing(remaining.map(\.rawValue))
            guard current.kind == .word, let permission = Grant.Permission(rawValue: current.text.uppercased()) else {
                throw failure(expected: expectation)
            }
            guard !permissions.contains(permission) else {
                throw failure(expected: expectation, reason: "\(permission) is already granted")
            }
            permissions.insert(permission)
            advance()
            if permissions.count < Grant.Permission.allCases.count, current.isSymbol(",") {
                advance()
                continue
            }
            guard current.isKeyword("TO") else {
                throw failure(expected: permissions.count < Grant.Permission.allCases.count ? #""," or TO"# : "TO")
            }
            advance()
            break
        }
        let token = current
        let role = try parseRoleName(declaring: false)
        guard current.isSymbol(",") || current.isSymbol(")") else { throw failure(expected: #""," or ")""#) }
        return (Grant(permissions, to: role), token)
    }

    // MARK: Fields

    /// Reads what follows a field's name: its type and options, up to the `,` or `)` after them.
    private mutating func parseFieldDeclaration(named name: String) throws -> FieldDefinition {
        let typeToken = current
        let (type, isEncrypted) = try parseDataType()
        if let system = FieldDefinition.systemField(named: name), system.type != type || isEncrypted {
            let found = FieldDefinition(name: name, type: type, isEncrypted: isEncrypted).typeDeclaration
            throw failure(
                .invalidSchema, expected: system.type.description, found: found,
                reason: "the type of the system field \(CKSLName.spelling(name)) cannot change", at: typeToken)
        }
        var options: Set<FieldDefinition.Option> = []
        while true {
            let allowed = FieldDefinition.allowedOptions(type: type, isEncrypted: isEncrypted).filter {
                !options.contains($0)
            }
            let expectation = Self.listing(allowed.map(\.rawValue) + [#"",""#, #"")""#])
            guard current.kind == .word, let option = FieldDefinition.Option(rawValue: current.text.uppercased()) else {
                guard current.isSymbol(",") || current.isSymbol(")") else { throw failure(expected: expectation) }
                return FieldDefinition(name: name, type: type, isEncrypted: isEncrypted, options: options)
            }
            if options.contains(option) { throw failure(expected: expectation, reason: "\(option) is already given") }
            if let reason = FieldDefinition.rejection(of: option, type: type, isEncrypted: isEncrypted) {
                throw failure(.invalidSchema, expected: expectation, reason: reason)
            }
            options.insert(option)
            advance()
        }
    }

    /// Reads a data type: `STRING`, `ENCRYPTED STRING`, `NUMBER PREFERRED AS INT64`, `LIST<STRING>`.
    private mutating func parseDataType() throws -> (FieldDataType, isEncrypted: Bool) {
        if current.isKeyword("ENCRYPTED") {
            advance()
            let encryptable = PrimitiveType.encryptable
            return (
                .primitive(try expectPrimitive(encryptable, expected: Self.listing(encryptable.map(\.rawValue)))), true
            )
        }
        if current.isKeyword("NUMBER") {
            advance()
            guard current.isKeyword("PREFERRED") else { return (.number(preferred: nil), false) }
            advance()
            try expectKeyword("AS")
            guard current.kind == .word, let preferred = PreferredNumberType(rawValue: current.text.uppercased()) else {
                throw failure(expected: "INT64 or DOUBLE")
            }
            advance()
            return (.number(preferred: preferred), false)
        }
        if current.isKeyword("LIST") {
            advance()
            try expectSymbol("<")
            let all = PrimitiveType.allCases
            let element = try expectPrimitive(
                all, expected: Self.listing(all.map(\.rawValue)), reason: "lists do not nest")
            try expectSymbol(">")
            return (.list(element), false)
        }
        guard current.kind == .word, let primitive = PrimitiveType(rawValue: current.text.uppercased()) else {
            throw failure(expected: "a data type such as STRING, INT64 or LIST<STRING>")
        }
        advance()
        return (.primitive(primitive), false)
    }

    /// Reads one of `types`; `reason` explains a `LIST` found in their place.
    private mutating func expectPrimitive(_ types: [PrimitiveType], expected: String, reason: String? = nil) throws
        -> PrimitiveType
    {
        guard current.kind == .word, let primitive = PrimitiveType(rawValue: current.text.uppercased()),
            types.contains(primitive)
        else {
            throw failure(expected: expected, reason: current.isKeyword("LIST") ? reason : nil)
        }
        advance()
        return primitive
    }

    // MARK: Names

    /// Reads a field name: an identifier, or a double-quoted identifier, reserved word or system field.
    private mutating func parseFieldName() throws -> String {
        let expectation = #"a field name, GRANT or ")""#
        switch current.kind {
        case .word:
            try checkBareName(
                expected: expectation, system: #"names starting with "_" are system fields and must be double-quoted"#)
        case .quoted where FieldDefinition.systemField(named: current.text) != nil:
            break
        case .quoted where current.text.hasPrefix("_"):
            let names = FieldDefinition.systemFields.map { CKSLName.spelling($0.name) }
            throw failure(
                .invalidSchema, expected: expectation,
                reason: "the system fields are \(Self.listing(names, conjunction: "and"))")
        case .quoted:
            try checkIdentifier(expected: expectation)
        default:
            throw failure(expected: expectation)
        }
        return advance().text
    }

    /// Reads a record type name: an identifier, or a double-quoted identifier or reserved word.
    private mutating func parseTypeName() throws -> String {
        let expectation = "a record type name"
        switch current.kind {
        case .word:
            try checkBareName(expected: expectation, system: #"names starting with "_" are reserved for the system"#)
        case .quoted:
            try checkIdentifier(expected: expectation)
        default:
            throw failure(expected: expectation)
        }
        return advance().text
    }

    /// Reads a role name: an identifier, or a name in double quotes (`"test role"`); a system role
    /// (`"_world"`) only when `declaring` is false.
    private mutating func parseRoleName(declaring: Bool) throws -> Grant.Role {
        let expectation = declaring ? "a role name" : Self.roleExpectation
        let system = #"names starting with "_" belong to system roles"#
        switch current.kind {
        case .word:
            try checkBareName(
                expected: expectation, system: declaring ? system : "system role names must be double-quoted")
        case .quoted where !declaring && Grant.Role(current.text).isSystemRole:
            break
        case .quoted where current.text.hasPrefix("_"):
            throw failure(.invalidSchema, expected: expectation, reason: declaring ? system : nil)
        case .quoted where !CKSLName.isQuotableRoleName(current.text):
            throw failure(.invalidSchema, expected: expectation, reason: CKSLName.roleNameRule)
        case .quoted:
            break
        default:
            throw failure(expected: expectation)
        }
        return Grant.Role(advance().text)
    }

    private static let roleExpectation = #""_creator", "_icloud", "_world" or a role created with CREATE ROLE"#

    /// Checks a bare word used as a name: not a system name, not a reserved word, an identifier.
    private func checkBareName(expected: String, system: String) throws {
        if current.text.hasPrefix("_") { throw failure(.invalidSchema, expected: expected, reason: system) }
        if CKSLName.isReserved(current.text) {
            throw failure(expected: expected, reason: "\(current.text) is a reserved word and must be double-quoted")
        }
        try checkIdentifier(expected: expected)
    }

    private func checkIdentifier(expected: String) throws {
        guard let problem = CKSLName.identifierProblem(current.text) else { return }
        let length = current.text.unicodeScalars.count
        let found = length > CKSLName.maximumLength ? "a name of \(length) characters" : nil
        throw failure(.invalidSchema, expected: expected, found: found, reason: problem)
    }

    // MARK: Tokens and errors

    /// The token being looked at; the last token is always ``CKSLToken/Kind/end``, which is never passed.
    private var current: CKSLToken { tokens[index] }

    /// Moves past the current token and returns it.
    @discardableResult
    private mutating func advance() -> CKSLToken {
        let token = current
        if index < tokens.count - 1 { index += 1 }
        return token
    }

    private mutating func expectKeyword(_ keyword: String, describedAs description: String? = nil) throws {
        guard current.isKeyword(keyword) else { throw failure(expected: description ?? keyword) }
        advance()
    }

    private mutating func expectSymbol(_ symbol: String) throws {
        guard current.isSymbol(symbol) else { throw failure(expected: "\"\(symbol)\"") }
        advance()
    }

    /// `expected X, found Y; reason` at `token` (the current one by default), with the source line and a caret;
    /// `code` is ``CloudSeedError/Code/invalidSchema`` where the text is well-formed but breaks one of CloudKit's rules.
    private func failure(
        _ code: CloudSeedError.Code = .malformedSource, expected: String, found: String? = nil, reason: String? = nil,
        at token: CKSLToken? = nil
    ) -> CloudSeedError {
        let token = token ?? current
        let message = "expected \(expected), found \(found ?? token.found)" + (reason.map { "; \($0)" } ?? "")
        return source.error(code, message, at: token.start)
    }

    private func duplicate(_ what: String, at token: CKSLToken, first: CKSLToken) -> CloudSeedError {
        source.error(
            .malformedSource, "duplicate \(what), first declared at \(source.position(first.start))", at: token.start)
    }

    /// `A`, `A or B`, `A, B or C`.
    private static func listing(_ items: [String], conjunction: String = "or") -> String {
        guard let last = items.last else { return "" }
        return items.count == 1 ? last : items.dropLast().joined(separator: ", ") + " \(conjunction) " + last
    }
}
