/// An append-only array kept in chunks of 16,384 elements, so that growing it never copies what it
/// holds: with a million rows' entries, an array's doubling would hold two copies at once.
struct ChunkedArray<Element>: RandomAccessCollection {
    private static var chunkShift: Int { 14 }
    private static var chunkMask: Int { (1 << chunkShift) - 1 }
    private var chunks: [[Element]] = []
    private(set) var count = 0

    var startIndex: Int { 0 }
    var endIndex: Int { count }

    subscript(position: Int) -> Element {
        chunks[position >> Self.chunkShift][position & Self.chunkMask]
    }

    mutating func append(_ element: Element) {
        if count & Self.chunkMask == 0 {
            chunks.append([])
            chunks[chunks.count - 1].reserveCapacity(Self.chunkMask + 1)
        }
        chunks[chunks.count - 1].append(element)
        count += 1
    }
}
