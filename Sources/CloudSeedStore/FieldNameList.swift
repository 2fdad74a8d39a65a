/// The field names a run's records of one type come with, kept where they are written. A run
/// passes the same array with every record, so an array is recognised by its storage before its
/// names are compared.
package struct FieldNameList {
    package let names: [String]
    /// The array last found equal to ``names``, kept so that its storage stays its own.
    private var lastMatch: [String]

    package init(_ names: [String]) {
        self.names = names
        lastMatch = names
    }

    /// Whether `given` holds ``names``, in order.
    package mutating func matches(_ given: [String]) -> Bool {
        if given.count == lastMatch.count, Self.storage(of: given) == Self.storage(of: lastMatch) { return true }
        guard given == names else { return false }
        lastMatch = given
        return true
    }

    private static func storage(of names: [String]) -> UnsafeRawPointer? {
        names.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
    }
}
