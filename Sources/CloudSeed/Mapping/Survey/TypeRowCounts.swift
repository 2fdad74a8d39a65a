/// Rows counted by record type, the last type's count kept apart: the rows of a type follow one
/// another, so that most rows are counted without hashing their type's name.
struct TypeRowCounts {
    private var counts: [String: Int] = [:]
    private var lastType = ""
    private var lastCount = 0

    /// Counts a row of `type`; returns how many rows of it came before.
    mutating func count(_ type: String) -> Int {
        if type != lastType {
            if !lastType.isEmpty { counts[lastType] = lastCount }
            lastType = type
            lastCount = counts[type, default: 0]
        }
        defer { lastCount += 1 }
        return lastCount
    }
}
