package import CloudSeedCore

/// A line and a column in CKSL text, both counted from 1; columns count Unicode scalars.
package struct CKSLLocation: Hashable, Sendable {
    package var line: Int
    package var column: Int
}

/// CKSL text and the name of its file: turns a location into an error that shows the source line and a
/// caret under the column, as Yams does.
///
/// ```
/// schema.ckdb:3:21: expected "," or ")", found QUERYABLE; ASSET fields cannot be indexed
///         photo ASSET QUERYABLE
///                     ^
/// ```
package struct CKSLSource {
    /// The file as the user named it.
    package let file: String
    /// The text, one Unicode scalar per element.
    package let scalars: [Unicode.Scalar]

    package init(text: String, file: String) {
        self.file = file
        self.scalars = Array(text.unicodeScalars)
    }

    /// Where `location` is, as the rest of cloudseed reports positions.
    package func position(_ location: CKSLLocation) -> SourcePosition {
        SourcePosition(file: file, line: location.line, column: location.column)
    }

    /// An error at `location` whose description is `FILE:LINE:COLUMN: message`, the source line and a caret.
    package func error(_ code: CloudSeedError.Code, _ message: String, at location: CKSLLocation) -> CloudSeedError {
        CloudSeedError(code, message + "\n" + snippet(at: location), at: position(location))
    }

    /// The source line of `location`, then a line with a caret under its column; tabs before the
    /// column are kept so that the caret lines up.
    private func snippet(at location: CKSLLocation) -> String {
        var line = 1
        var start = scalars.startIndex
        while line < location.line, let newline = scalars[start...].firstIndex(of: "\n") {
            start = newline + 1
            line += 1
        }
        var text = scalars[start...].prefix { $0 != "\n" }
        if text.last == "\r" { text = text.dropLast() }
        var caret = String.UnicodeScalarView()
        for scalar in text.prefix(max(location.column - 1, 0)) { caret.append(scalar == "\t" ? "\t" : " ") }
        caret.append("^")
        return String(String.UnicodeScalarView(text)) + "\n" + String(caret)
    }
}
