import Foundation

/// Where a value came from: a file with a line and column, or a key path inside a document.
public struct SourcePosition: Hashable, Sendable, CustomStringConvertible {
    /// The file, as a number in ``Names/files``: every value of a run carries its position, and a
    /// shared string would have its reference count bumped by both cores for every one of them.
    private var fileNumber: UInt32
    /// With `storedKeyPath`, the key of the value in the dictionary there, as a number in
    /// ``Names/keys`` plus one (0 for none): a binary property list's fields get their positions
    /// without a key path joined (and allocated) for each, which only an error needs. It fills the
    /// padding after `fileNumber`, so a position is no larger for it.
    private var memberNumber: UInt32 = 0
    public var line: Int?
    public var column: Int?
    private var storedKeyPath: String?

    public init(file: String, line: Int? = nil, column: Int? = nil, keyPath: String? = nil) {
        fileNumber = Names.files.number(of: file)
        self.line = line
        self.column = column
        self.storedKeyPath = keyPath
    }

    /// The file as the user named it (`-` for standard input).
    public var file: String {
        get { Names.files.name(fileNumber) }
        set { fileNumber = Names.files.number(of: newValue) }
    }

    /// For formats without lines (binary property lists): the path to the value, as `[2].title`.
    public var keyPath: String? {
        get {
            guard memberNumber > 0 else { return storedKeyPath }
            return Self.keyPath(storedKeyPath ?? "", Names.keys.name(memberNumber - 1))
        }
        set {
            storedKeyPath = newValue
            memberNumber = 0
        }
    }

    /// The path to the value of `key` in the dictionary at `path`.
    package static func keyPath(_ path: String, _ key: String) -> String {
        guard !path.isEmpty else { return key }
        // Written once into a string of the right size: appending the parts (or interpolating
        // them) slowed a binary property list's reading.
        var path = path
        var key = key
        let count = path.utf8.count + 1 + key.utf8.count
        return path.withUTF8 { path in
            key.withUTF8 { key in
                String(unsafeUninitializedCapacity: count) { joined in
                    _ = joined.initialize(fromContentsOf: path)
                    joined[path.count] = UInt8(ascii: ".")
                    _ = joined[(path.count + 1)...].initialize(fromContentsOf: key)
                    return count
                }
            }
        }
    }

    /// The same file at another line and column: what readers call for every value, without
    /// looking the file name up.
    package func at(line: Int, column: Int) -> SourcePosition {
        var position = self
        position.line = line
        position.column = column
        return position
    }

    /// The same file at another key path.
    package func at(keyPath: String) -> SourcePosition {
        var position = self
        position.line = nil
        position.column = nil
        position.keyPath = keyPath
        return position
    }

    /// The same file at the value of a key in the dictionary at `path`; `member` is the key's
    /// number in ``Names/keys``.
    package func at(path: String, member: UInt32) -> SourcePosition {
        var position = self
        position.line = nil
        position.column = nil
        position.storedKeyPath = path
        position.memberNumber = member + 1
        return position
    }

    /// Positions are the same where they print the same: a key path held in two parts equals it joined.
    public static func == (lhs: SourcePosition, rhs: SourcePosition) -> Bool {
        guard lhs.fileNumber == rhs.fileNumber, lhs.line == rhs.line, lhs.column == rhs.column else { return false }
        if lhs.memberNumber == rhs.memberNumber { return lhs.storedKeyPath == rhs.storedKeyPath }
        return lhs.keyPath == rhs.keyPath
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(fileNumber)
        hasher.combine(line)
        hasher.combine(column)
        hasher.combine(keyPath)
    }

    /// `FILE:LINE:COLUMN`, or `FILE:KEYPATH` where there are no lines.
    public var description: String {
        if let line {
            return column.map { "\(file):\(line):\($0)" } ?? "\(file):\(line)"
        }
        if let keyPath, !keyPath.isEmpty { return "\(file):\(keyPath)" }
        return file
    }
}

/// Names positions refer to, each kept once for the life of the process and numbered.
package final class Names: @unchecked Sendable {
    /// The files.
    package static let files = Names()
    /// The keys of the dictionaries that binary property lists' fields are in.
    package static let keys = Names()
    private let lock = NSLock()
    private var names: [String] = []
    private var numbers: [String: UInt32] = [:]

    package func number(of name: String) -> UInt32 {
        lock.lock()
        defer { lock.unlock() }
        if let number = numbers[name] { return number }
        let number = UInt32(names.count)
        names.append(name)
        numbers[name] = number
        return number
    }

    package func name(_ number: UInt32) -> String {
        lock.lock()
        defer { lock.unlock() }
        return names[Int(number)]
    }
}

/// An error a user can cause: what is wrong, where, and what to do about it.
///
/// Printed as `FILE:LINE:COLUMN: what is wrong; what to do`. A run that stops on several errors
/// throws the first, with the rest in ``furtherErrors``.
public struct CloudSeedError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kind of failure, for callers that handle some kinds: `catch let error as CloudSeedError where error.code == .unresolvedReference`.
    public enum Code: String, Hashable, Sendable, CaseIterable {
        /// A source, manifest or schema file is not well-formed in its format: JSON, CSV, property list, YAML, CKSL.
        case malformedSource
        /// A value does not fit: a number out of range, a date outside 0001–9999, text that is not UTF-8, a value of another type than its field's, a cell a store cannot hold.
        case invalidValue
        /// A file or folder cannot be found, read or written.
        case fileAccess
        /// An option or argument is not valid: --field, --reference, --location, --name-template, a filter, a container, zone or record type name.
        case invalidOption
        /// A reference names a record neither the run nor the store has.
        case unresolvedReference
        /// A record type is not in the store or schema.
        case unknownRecordType
        /// A field is not in its record type.
        case unknownField
        /// Production refuses a schema change: a new record type or field, or one that loses what production has.
        case productionSchemaRefused
        /// Two records of a run would get the same name, or a name is ambiguous.
        case duplicateRecordName
        /// A record exists where the save mode only creates, or changed since it was read.
        case recordConflict
        /// Over CloudKit's limits: 1 MB of fields, 50 MB an asset, nesting too deep.
        case limitExceeded
        /// A query needs an index or comparator the field does not have.
        case unsupportedQuery
        /// A schema is not valid: CKSL validation, a field's type change.
        case invalidSchema
        /// A backup bundle is damaged, incomplete or not a backup.
        case damagedBackup
        /// The store failed or is unusable: a SQLite or PostgreSQL error, another store format, no store where one must exist.
        case storeFailure
        /// The public database's grants do not let the user do it.
        case permissionDenied
        /// An asset file or its bytes are missing.
        case missingAsset
    }

    /// How many errors a run reports before it stops.
    public static let limit = 20

    public var code: Code
    public var position: SourcePosition?
    /// What is wrong and what to do, with the run options it names as the library words them.
    public var message: String {
        get { optionText.description }
        set { optionText = OptionText(newValue) }
    }
    /// The message with the run options it names kept apart, for a front end to word them as its
    /// own (the command line names its flags).
    package var optionText: OptionText
    /// When a run stopped on several errors, this error is the first and these the rest, at most ``limit`` in all.
    public var furtherErrors: [CloudSeedError] = []

    public init(_ code: Code, _ message: String, at position: SourcePosition? = nil) {
        self.init(code, OptionText(message), at: position)
    }

    /// An error whose message names run options, as the library words them.
    package init(_ code: Code, _ message: OptionText, at position: SourcePosition? = nil) {
        self.code = code
        self.optionText = message
        self.position = position
    }

    /// The errors a run stopped on, as one error: the first, with the rest as its ``furtherErrors``.
    package init(collecting errors: [CloudSeedError]) {
        precondition(!errors.isEmpty, "a run stops on at least one error")
        self = errors[0]
        furtherErrors = Array(errors.dropFirst())
    }

    /// This error without its ``furtherErrors``, then each of them: every error the run stopped on.
    public var allErrors: [CloudSeedError] {
        var first = self
        first.furtherErrors = []
        return [first] + furtherErrors
    }

    /// `FILE:LINE:COLUMN: message`, with the key path of a JSON or plist row after the message; one
    /// line for each of ``allErrors``.
    public var description: String { described { $0.libraryWording } }

    /// ``message`` with the run options it names worded by `wording`.
    package func message(wordingOptions wording: (RunOption) -> String) -> String {
        optionText.worded(wording)
    }

    /// ``description`` with the run options the messages name worded by `wording`.
    package func described(wordingOptions wording: (RunOption) -> String) -> String {
        allErrors.map { $0.line(message: $0.message(wordingOptions: wording)) }.joined(separator: "\n")
    }

    /// This error's own line.
    private func line(message: String) -> String {
        guard let position else { return message }
        if position.line != nil, let keyPath = position.keyPath, !keyPath.isEmpty {
            return "\(position): \(message) (at \(keyPath))"
        }
        return "\(position): \(message)"
    }
}

/// Collects the errors of a run up to ``CloudSeedError/limit``, then stops it.
package struct ErrorCollector {
    package private(set) var errors: [CloudSeedError] = []

    package init() {}

    /// Records an error; throws the whole list once the limit is reached.
    package mutating func record(_ error: CloudSeedError) throws {
        errors.append(error)
        if errors.count >= CloudSeedError.limit { throw CloudSeedError(collecting: errors) }
    }

    /// Throws the collected errors, if any.
    package func throwIfAny() throws {
        if !errors.isEmpty { throw CloudSeedError(collecting: errors) }
    }
}
