import CloudSeedCore

/// Splits CKSL text into tokens, skipping white space and the three comment forms (`// …`, `-- …`,
/// `/* … */`).
///
/// Any character CKSL has no use for becomes an ``CKSLToken/Kind/invalid`` token, so that the parser
/// can say what it expected there. The lexer itself fails only on a block comment or a quoted name that
/// does not end.
package struct CKSLLexer {
    private let source: CKSLSource
    private var index = 0
    private var location = CKSLLocation(line: 1, column: 1)

    private init(source: CKSLSource) {
        self.source = source
    }

    /// The tokens of `source`, ending with an ``CKSLToken/Kind/end`` token just after the last one.
    ///
    /// - Throws: ``CloudSeedError`` for an unterminated block comment or quoted name.
    package static func tokens(of source: CKSLSource) throws -> [CKSLToken] {
        var lexer = CKSLLexer(source: source)
        var tokens: [CKSLToken] = []
        var end = CKSLLocation(line: 1, column: 1)
        while let token = try lexer.next() {
            tokens.append(token)
            end = token.end
        }
        tokens.append(CKSLToken(kind: .end, text: "", start: end, end: end))
        return tokens
    }

    private func peek(_ offset: Int = 0) -> Unicode.Scalar? {
        index + offset < source.scalars.count ? source.scalars[index + offset] : nil
    }

    private mutating func advance() {
        if source.scalars[index] == "\n" {
            location.line += 1
            location.column = 1
        } else {
            location.column += 1
        }
        index += 1
    }

    private mutating func next() throws -> CKSLToken? {
        try skipSpaceAndComments()
        guard let scalar = peek() else { return nil }
        let start = location
        var text = String.UnicodeScalarView()
        switch scalar {
        case "\"":
            return try quotedName(from: start)
        case "(", ")", ",", ";", "<", ">":
            advance()
            return CKSLToken(kind: .symbol, text: String(scalar), start: start, end: location)
        case _ where CKSLName.isIdentifierScalar(scalar):
            while let next = peek(), CKSLName.isIdentifierScalar(next) {
                text.append(next)
                advance()
            }
            return CKSLToken(kind: .word, text: String(text), start: start, end: location)
        default:
            advance()
            return CKSLToken(kind: .invalid, text: String(scalar), start: start, end: location)
        }
    }

    private mutating func skipSpaceAndComments() throws {
        while let scalar = peek() {
            switch (scalar, peek(1)) {
            case (" ", _), ("\t", _), ("\r", _), ("\n", _), ("\u{0B}", _), ("\u{0C}", _):
                advance()
            case ("\u{FEFF}", _) where index == 0:  // a byte order mark some editors write
                advance()
            case ("/", "/"), ("-", "-"):
                while let next = peek(), next != "\n" { advance() }
            case ("/", "*"):
                let start = location
                advance()
                advance()
                while peek() != "*" || peek(1) != "/" {
                    guard peek() != nil else {
                        throw source.error(
                            .malformedSource, #"expected "*/" to end the comment that starts here, found end of file"#,
                            at: start)
                    }
                    advance()
                }
                advance()
                advance()
            default:
                return
            }
        }
    }

    private mutating func quotedName(from start: CKSLLocation) throws -> CKSLToken {
        advance()
        var text = String.UnicodeScalarView()
        while let scalar = peek(), scalar != "\"" {
            guard scalar != "\n" else { break }
            text.append(scalar)
            advance()
        }
        guard peek() == "\"" else {
            let found = peek() == nil ? "end of file" : "end of line"
            throw source.error(
                .malformedSource, #"expected " to end the quoted name that starts here, found \#(found)"#, at: start)
        }
        advance()
        return CKSLToken(kind: .quoted, text: String(text), start: start, end: location)
    }
}
