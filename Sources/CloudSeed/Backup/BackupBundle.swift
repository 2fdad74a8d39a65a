import Crypto
import Foundation

/// A backup bundle on disk whose every file was checked against its manifest.
///
/// Opening a bundle verifies it whole before anything is restored: the manifest parses and lists
/// only paths inside the bundle; every file it lists is there, a plain file, with its size and
/// SHA-256; no other file is there; each records file holds as many lines as the manifest counts.
/// The first fault found is thrown, naming the file at fault:
///
/// ```
/// backup/records/development/public/__defaultOwner__/_defaultZone/Artwork.jsonl: checksum mismatch: the file was changed or damaged; restore from an intact backup
/// ```
package struct BackupBundle: Sendable {
    /// The bundle's folder as given, without a trailing `/`.
    package let path: String
    package let manifest: BackupManifest

    /// Opens the bundle at `path` and verifies it.
    package init(verifying path: String) throws {
        self.path = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: self.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw CloudSeedError(
                .fileAccess, "no such folder; name a backup folder that \(option: .backup) wrote",
                at: SourcePosition(file: self.path))
        }
        var present = Set<String>()
        try Self.collectFiles(in: self.path, under: "", into: &present)
        let manifestPath = "\(self.path)/\(BackupLayout.manifest)"
        guard present.remove(BackupLayout.manifest) != nil,
            let data = FileManager.default.contents(atPath: manifestPath)
        else {
            throw CloudSeedError(
                .damagedBackup,
                "missing: the folder is not a backup, or its backup did not finish; name a complete backup folder",
                at: SourcePosition(file: manifestPath))
        }
        manifest = try BackupManifest.parse(Array(data), file: manifestPath)
        let listed = Set(manifest.files.map(\.path))
        if let extra = present.subtracting(listed).min(by: SchemaDefinition.byteOrder) {
            throw fault(
                .damagedBackup, extra,
                "not listed in the manifest: the bundle holds a file its backup did not write; remove it, or restore from an intact backup"
            )
        }
        let counts = Dictionary(uniqueKeysWithValues: manifest.recordFiles.map { ($0.path, $0.count) })
        for file in manifest.files {
            guard present.contains(file.path) else {
                throw fault(
                    .damagedBackup, file.path,
                    "missing: the manifest lists it but the bundle does not hold it; restore from a complete backup")
            }
            try verify(file, lines: counts[file.path])
        }
    }

    /// The location of a file of the bundle.
    func url(_ relativePath: String) -> URL {
        URL(fileURLWithPath: path).appendingPathComponent(relativePath)
    }

    /// A file of the bundle as errors name it: `backup/schema/development.ckdb`.
    func displayPath(_ relativePath: String) -> String {
        "\(path)/\(relativePath)"
    }

    private func fault(_ code: CloudSeedError.Code, _ relativePath: String, _ message: String) -> CloudSeedError {
        CloudSeedError(code, message, at: SourcePosition(file: displayPath(relativePath)))
    }

    /// Checks a file's size and SHA-256, and for a records file that it has `lines` lines.
    private func verify(_ file: BackupManifest.File, lines: Int?) throws {
        guard let handle = FileHandle(forReadingAtPath: url(file.path).path) else {
            throw fault(.fileAccess, file.path, "cannot be read; check its permissions")
        }
        defer { try? handle.close() }
        var hasher = SHA256()
        var size: Int64 = 0
        var newlines = 0
        while true {
            let chunk: Data
            do {
                guard let read = try handle.read(upToCount: 1 << 20), !read.isEmpty else { break }
                chunk = read
            } catch {
                throw fault(.fileAccess, file.path, "cannot be read; check its permissions")
            }
            hasher.update(data: chunk)
            size += Int64(chunk.count)
            if lines != nil { newlines += chunk.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) } }
        }
        guard size == file.size else {
            throw fault(
                .damagedBackup, file.path,
                "size mismatch: the manifest says \(file.size) bytes, the file has \(size): the file was changed or damaged; restore from an intact backup"
            )
        }
        let digest = hasher.finalizeHex()
        guard digest == file.sha256 else {
            throw fault(
                .damagedBackup, file.path,
                "checksum mismatch: the file was changed or damaged; restore from an intact backup")
        }
        if let lines, lines != newlines {
            throw fault(
                .damagedBackup, file.path,
                "holds \(newlines) records but the manifest counts \(lines); restore from an intact backup")
        }
    }

    /// Adds the plain files under `relative` to `files`; a link or special file is refused.
    private static func collectFiles(in root: String, under relative: String, into files: inout Set<String>) throws {
        let folder = relative.isEmpty ? root : "\(root)/\(relative)"
        let fileManager = FileManager.default
        guard let names = try? fileManager.contentsOfDirectory(atPath: folder) else {
            throw CloudSeedError(.fileAccess, "cannot be read; check its permissions", at: SourcePosition(file: folder))
        }
        for name in names {
            let path = relative.isEmpty ? name : "\(relative)/\(name)"
            let type = (try? fileManager.attributesOfItem(atPath: "\(root)/\(path)"))?[.type] as? FileAttributeType
            switch type {
            case .typeDirectory?: try collectFiles(in: root, under: path, into: &files)
            case .typeRegular?: files.insert(path)
            case .typeSymbolicLink?:
                throw CloudSeedError(
                    .damagedBackup,
                    "a symbolic link: a backup holds only plain files; remove it, or restore from an intact backup",
                    at: SourcePosition(file: "\(root)/\(path)"))
            default:
                throw CloudSeedError(
                    .damagedBackup,
                    "not a plain file: a backup holds only plain files; remove it, or restore from an intact backup",
                    at: SourcePosition(file: "\(root)/\(path)"))
            }
        }
    }
}
