import Foundation

/// Loads the file an ASSET value names: relative to the source's folder, never outside it.
enum AssetLoader {
    /// CloudKit's limit on one asset file.
    static let maximumAssetSize = 50 * 1024 * 1024

    /// Reads `path`, adds its content to `contents` under its SHA-256, and returns the asset.
    static func load(_ path: String, at position: SourcePosition, into contents: inout [String: Data]) throws -> AssetReference {
        let folder = (position.file as NSString).deletingLastPathComponent
        let base = URL(fileURLWithPath: folder.isEmpty ? "." : folder).standardizedFileURL.resolvingSymlinksInPath()
        guard !path.hasPrefix("/") else {
            throw CloudSeedError("the asset path '\(path)' is absolute; give it relative to the source file's folder", at: position)
        }
        let url = base.appendingPathComponent(path).standardizedFileURL.resolvingSymlinksInPath()
        guard url.path.hasPrefix(base.path + "/") else {
            throw CloudSeedError("the asset path '\(path)' leads outside the source file's folder; move the file inside it", at: position)
        }
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw CloudSeedError("the asset file '\(path)' does not exist (looked in \(base.path)); fix the path", at: position)
        }
        guard data.count <= maximumAssetSize else {
            throw CloudSeedError("the asset file '\(path)' is \(data.count) bytes, over CloudKit's 50 MB limit", at: position)
        }
        let checksum = SHA256.hexDigest(of: data)
        contents[checksum] = data
        return AssetReference(fileChecksum: checksum, size: Int64(data.count))
    }
}
