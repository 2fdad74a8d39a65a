import Foundation

/// Builds a folder beside its target and puts it in place only when it is complete.
///
/// The new folder is `TARGET.partial-<random>`. On ``commit()`` an existing target is renamed aside
/// (`TARGET.previous-<random>`), the new folder renamed in, and the old one removed; so a run that
/// fails or is killed leaves any earlier folder as it was. The target may be absent, an empty
/// folder, or a cloudseed backup: anything else is refused before a byte is written.
struct FolderReplacement {
    /// The folder to fill.
    let partial: URL
    private let target: URL

    init(target path: String) throws {
        let trimmed = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
        target = URL(fileURLWithPath: trimmed).standardizedFileURL
        let fileManager = FileManager.default
        let parent = target.deletingLastPathComponent()
        var isDirectory: ObjCBool = false
        guard fileManager.fileExists(atPath: parent.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw CloudSeedError(
                .fileAccess, "the folder that would hold the backup does not exist; create it first",
                at: SourcePosition(file: parent.path))
        }
        if fileManager.fileExists(atPath: target.path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue, Self.isReplaceable(target) else {
                throw CloudSeedError(
                    .fileAccess,
                    "exists and is not a cloudseed backup, so it was left alone; name a new folder with \(option: .output)",
                    at: SourcePosition(file: path))
            }
        }
        partial = parent.appendingPathComponent("\(target.lastPathComponent).partial-\(Self.randomSuffix())")
        do {
            try fileManager.createDirectory(at: partial, withIntermediateDirectories: false)
        } catch {
            throw CloudSeedError(
                .fileAccess, "cannot create a folder beside the backup; check that its folder is writable",
                at: SourcePosition(file: partial.path))
        }
    }

    /// Puts the finished folder in place of the target.
    func commit() throws {
        let fileManager = FileManager.default
        guard fileManager.fileExists(atPath: target.path) else {
            try move(partial, to: target)
            return
        }
        let aside = target.deletingLastPathComponent()
            .appendingPathComponent("\(target.lastPathComponent).previous-\(Self.randomSuffix())")
        try move(target, to: aside)
        do {
            try move(partial, to: target)
        } catch {
            try? fileManager.moveItem(at: aside, to: target)
            throw error
        }
        try? fileManager.removeItem(at: aside)
    }

    /// Removes the unfinished folder.
    func discard() {
        try? FileManager.default.removeItem(at: partial)
    }

    private func move(_ source: URL, to destination: URL) throws {
        do {
            try FileManager.default.moveItem(at: source, to: destination)
        } catch {
            throw CloudSeedError(
                .fileAccess, "cannot rename the backup into place; check that its folder is writable",
                at: SourcePosition(file: destination.path))
        }
    }

    /// An empty folder, or one whose manifest says cloudseed wrote it.
    private static func isReplaceable(_ folder: URL) -> Bool {
        let fileManager = FileManager.default
        if (try? fileManager.contentsOfDirectory(atPath: folder.path))?.isEmpty == true { return true }
        guard let data = fileManager.contents(atPath: folder.appendingPathComponent(BackupLayout.manifest).path) else {
            return false
        }
        var parser = JSONParser(input: ChunkedInput(bytes: Array(data)), file: BackupLayout.manifest)
        guard let tool = (try? parser.parseDocument())?.member("tool")?.stringValue else { return false }
        return tool.hasPrefix("cloudseed ")
    }

    private static func randomSuffix() -> String {
        String(UInt64.random(in: 0...UInt64.max), radix: 36)
    }
}
