import CloudSeedCore
import Foundation

/// Bytes of a source read a chunk at a time, so memory does not grow with the file.
///
/// Scanners index into ``buffer`` and call ``fill()`` when they reach its end; ``compact()`` drops
/// what has been consumed, and is only called between records, so every index a scanner holds
/// into the current record stays valid while it grows the buffer.
package struct ChunkedInput {
    /// How much is read at a time.
    package static let chunkSize = 1 << 20

    private let handle: FileHandle?
    /// The bytes read and not yet dropped.
    package private(set) var buffer: [UInt8]
    /// The absolute offset in the source of `buffer[0]`.
    package private(set) var base = 0
    package private(set) var isExhausted: Bool
    private var meter: ProgressMeter?

    /// Reads the file at `path` in chunks, counting them on `meter`.
    package init(path: String, meter: ProgressMeter? = nil) throws {
        self.meter = meter
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw CloudSeedError(
                .fileAccess, "cannot be read; check that it exists and its permissions", at: SourcePosition(file: path))
        }
        self.handle = handle
        buffer = []
        isExhausted = false
    }

    /// Reads from bytes already in memory.
    package init(bytes: [UInt8]) {
        handle = nil
        buffer = bytes
        isExhausted = true
    }

    /// The byte at `offset` in ``buffer``, reading more input when needed; `nil` past the end.
    @inline(__always)
    package mutating func byte(at offset: Int) -> UInt8? {
        if offset < buffer.count { return buffer[offset] }
        while offset >= buffer.count { if !fill() { return nil } }
        return buffer[offset]
    }

    /// Whether ``buffer`` holds `key`'s bytes in double quotes at `offset`, reading more input
    /// when needed: a JSON key written without escapes is recognised so, without being parsed.
    package mutating func holdsQuoted(_ key: UnsafeBufferPointer<UInt8>, at offset: Int) -> Bool {
        guard byte(at: offset) == UInt8(ascii: "\""), byte(at: offset + key.count + 1) == UInt8(ascii: "\"")
        else { return false }
        return key.isEmpty
            || buffer.withUnsafeBufferPointer { memcmp($0.baseAddress! + offset + 1, key.baseAddress!, key.count) == 0 }
    }

    /// Appends the next chunk, read straight into ``buffer``; `false` when the source has no more.
    ///
    /// One `read` asks for the whole chunk: `FileHandle.readData(ofLength:)` read 4 KB at a time
    /// into a `Data` that was then copied.
    package mutating func fill() -> Bool {
        guard !isExhausted, let handle else { return false }
        let start = buffer.count
        appendRoom(Self.chunkSize)
        let count = buffer.withUnsafeMutableBytes { bytes in
            while true {
                let count = Foundation.read(handle.fileDescriptor, bytes.baseAddress! + start, Self.chunkSize)
                if count >= 0 || errno != EINTR { return max(count, 0) }
            }
        }
        buffer.removeLast(Self.chunkSize - count)
        if count == 0 {
            isExhausted = true
            try? handle.close()
            return false
        }
        meter?.advance(by: count)
        return true
    }

    /// Appends `count` zero bytes to ``buffer`` for a read to fill, copied from a zeroed block: a
    /// repeated element is appended a byte at a time where the build is not optimised (tests).
    private mutating func appendRoom(_ count: Int) {
        var left = count
        while left > 0 {
            let part = min(left, Self.zeros.count)
            buffer.append(contentsOf: Self.zeros[..<part])
            left -= part
        }
    }

    private static let zeros = [UInt8](repeating: 0, count: chunkSize)

    /// Reads the rest of the source into ``buffer`` (for formats read whole): straight into a
    /// buffer the size of the file, rather than a chunk at a time into one that grows.
    package mutating func readToEnd() {
        guard !isExhausted, let handle else { return }
        var status = stat()
        let unread = fstat(handle.fileDescriptor, &status) == 0 ? Int(status.st_size) - base - buffer.count : 0
        if unread > 0 {
            let start = buffer.count
            appendRoom(unread)
            let count = buffer.withUnsafeMutableBytes { bytes in
                var count = 0
                while count < unread {
                    let read = Foundation.read(
                        handle.fileDescriptor, bytes.baseAddress! + start + count, unread - count)
                    if read <= 0 { break }
                    count += read
                }
                return count
            }
            buffer.removeLast(unread - count)
            meter?.advance(by: count)
        }
        while fill() {}
    }

    /// Drops the bytes before `index`, returning how many were dropped (subtract it from held indices).
    package mutating func compact(before index: Int) -> Int {
        guard index > Self.chunkSize / 2 || index == buffer.count else { return 0 }
        buffer.removeSubrange(0..<index)
        base += index
        return index
    }
}
