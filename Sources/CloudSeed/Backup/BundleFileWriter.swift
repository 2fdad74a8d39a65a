import Crypto
import Foundation

/// Writes one file of a bundle being made, hashing the bytes on their way out so that the manifest
/// gets its size and SHA-256 without reading the file again. The file is flushed to disk on
/// ``finish()``, so a bundle renamed into place is on disk whole.
final class BundleFileWriter {
    /// The path inside the bundle.
    let path: String
    private let file: URL
    private let handle: FileHandle
    private var hasher = SHA256()
    private var pending = Data()
    private var size: Int64 = 0

    /// How much is gathered before it is written.
    private static let chunkSize = 1 << 20

    /// Creates `path` inside `folder`, and its folders. A file that exists already is refused: two
    /// names that differ only in case meet in one file on a case-insensitive file system.
    init(folder: URL, path: String) throws {
        self.path = path
        file = folder.appendingPathComponent(path)
        let fileManager = FileManager.default
        if fileManager.fileExists(atPath: file.path) {
            throw CloudSeedError(
                .fileAccess,
                "two names of the store differ only in case and meet in this file; back up to a case-sensitive file system",
                at: SourcePosition(file: file.path))
        }
        do {
            try fileManager.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        } catch {
            throw Self.failure(file)
        }
        guard fileManager.createFile(atPath: file.path, contents: nil),
            let handle = FileHandle(forWritingAtPath: file.path)
        else {
            throw Self.failure(file)
        }
        self.handle = handle
    }

    func write(_ text: String) throws {
        try write(Data(text.utf8))
    }

    func write(_ data: Data) throws {
        pending.append(data)
        if pending.count >= Self.chunkSize { try flush() }
    }

    /// Writes what is left, syncs and closes the file, and returns its entry for the manifest.
    func finish() throws -> BackupManifest.File {
        try flush()
        do {
            try handle.synchronize()
            try handle.close()
        } catch {
            throw Self.failure(file)
        }
        let digest = hasher.finalizeHex()
        return BackupManifest.File(path: path, size: size, sha256: digest)
    }

    private func flush() throws {
        guard !pending.isEmpty else { return }
        do {
            try handle.write(contentsOf: pending)
        } catch {
            throw Self.failure(file)
        }
        hasher.update(data: pending)
        size += Int64(pending.count)
        pending.removeAll(keepingCapacity: true)
    }

    private static func failure(_ file: URL) -> CloudSeedError {
        CloudSeedError(
            .fileAccess,
            "cannot write this file of the backup; check that the disk has space and the folder is writable",
            at: SourcePosition(file: file.path))
    }
}
