@testable import CloudSeed
@testable import CloudSeedCore
@testable import CloudSeedReaders
@testable import CloudSeedSchema
@testable import CloudSeedStore

/// Reads every row of `text` as a source of `format` named `file`.
func rows(_ text: String, format: SourceFormat, file: String = "test") throws -> [SourceRow] {
    try rows(bytes: Array(text.utf8), format: format, file: file)
}

func rows(bytes: [UInt8], format: SourceFormat, file: String = "test") throws -> [SourceRow] {
    var result: [SourceRow] = []
    try InMemoryReading.forEachRow(in: bytes, format: format, file: file) { result.append($0) }
    return result
}

/// The error a read throws, as the user sees it.
func readError(_ text: String, format: SourceFormat, file: String = "test") -> String? {
    do {
        _ = try rows(text, format: format, file: file)
        return nil
    } catch {
        return "\(error)"
    }
}

extension SourceRow {
    /// Field key → value, for assertions.
    var values: [String: PlainValue] {
        Dictionary(uniqueKeysWithValues: fields.map { ($0.key, $0.value) })
    }
}
