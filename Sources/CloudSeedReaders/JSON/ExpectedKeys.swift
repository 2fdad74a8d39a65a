import CloudSeedCore
import Foundation

/// The keys a reader expects in an object: ``JSONParser/nextMember(_:expected:)`` recognises one
/// written without escapes by its bytes, and returns it as this holds it rather than parsing a
/// new string, so the keys a reader switches on cost nothing each time they come.
package struct ExpectedKeys: Sendable {
    package let names: [String]
    private let bytes: [[UInt8]]
    private let longest: Int

    /// At most 64 keys, none empty (``DistinctKeys`` notes each one's arrival in a bit).
    package init(_ names: String...) {
        precondition(names.count <= 64 && !names.contains(""), "at most 64 expected keys, none empty")
        self.names = names
        bytes = names.map { Array($0.utf8) }
        longest = bytes.map(\.count).max() ?? 0
    }

    /// The offset in ``names`` of the key in double quotes at `index` of `input`, where it is one.
    package func match(in input: inout ChunkedInput, at index: Int) -> Int? {
        // Reads as far as the longest name could reach, then compares in place.
        _ = input.byte(at: index + longest + 1)
        return input.buffer.withUnsafeBufferPointer { buffer in
            let quote = UInt8(ascii: "\"")
            guard index < buffer.count, buffer[index] == quote else { return nil }
            return bytes.firstIndex { name in
                let end = index + name.count + 1
                return end < buffer.count && buffer[end] == quote
                    && name.withUnsafeBufferPointer {
                        memcmp(buffer.baseAddress! + index + 1, $0.baseAddress!, $0.count) == 0
                    }
            }
        }
    }
}
