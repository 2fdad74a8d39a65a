import Crypto
import Foundation

/// Loads the file an ASSET value names: relative to the source's folder, never outside it.
enum AssetLoader {
    /// CloudKit's limit on one asset file.
    static let maximumAssetSize = 50 * 1024 * 1024

    /// The extensions of files an ASSET field is inferred for: images, audio, video and documents.
    static let mediaExtensions: Set<String> = [
        "png", "jpg", "jpeg", "gif", "heic", "heif", "webp", "tif", "tiff", "bmp", "svg", "ico",
        "mp3", "m4a", "aac", "wav", "caf", "aiff", "flac", "mp4", "mov", "m4v", "avi",
        "pdf", "txt", "rtf", "md", "html", "doc", "docx", "xls", "xlsx", "ppt", "pptx", "pages", "numbers", "key",
        "epub", "zip",
    ]

    /// Whether `path` is relative and ends with a media or document file's extension.
    static func namesMediaFile(_ path: String) -> Bool {
        mediaExtensions.contains((path as NSString).pathExtension.lowercased()) && !path.hasPrefix("/")
    }

    /// Whether `path`, relative to `folder`, is an existing regular file.
    static func isFile(_ path: String, in folder: String) -> Bool {
        var isDirectory: ObjCBool = false
        let full = ((folder.isEmpty ? "." : folder) as NSString).appendingPathComponent(path)
        return FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory) && !isDirectory.boolValue
    }

    /// Reads `path`, adds its content to `contents` under its SHA-256, and returns the asset; `nil`
    /// where the file does not exist and `allowMissing` leaves it out.
    static func load(
        _ path: String, at position: SourcePosition, folder: String, allowOutside: Bool, allowMissing: Bool = false,
        into contents: inout [String: Data]
    ) throws -> AssetReference? {
        let base = URL(fileURLWithPath: folder.isEmpty ? "." : folder).standardizedFileURL.resolvingSymlinksInPath()
        guard allowOutside || !path.hasPrefix("/") else {
            throw CloudSeedError(
                .invalidValue,
                "the asset path '\(path)' is absolute; give it relative to the source file's folder, or pass \(option: .allowOutsideAssets)",
                at: position)
        }
        let url = (path.hasPrefix("/") ? URL(fileURLWithPath: path) : base.appendingPathComponent(path))
            .standardizedFileURL.resolvingSymlinksInPath()
        guard allowOutside || url.path.hasPrefix(base.path + "/") else {
            throw CloudSeedError(
                .invalidValue,
                "the asset path '\(path)' leads outside the source file's folder; move the file inside it, or pass \(option: .allowOutsideAssets)",
                at: position)
        }
        guard let data = FileManager.default.contents(atPath: url.path) else {
            if allowMissing { return nil }
            let closest = closestFile(to: url).map {
                "; closest: '\(((path as NSString).deletingLastPathComponent as NSString).appendingPathComponent($0))'"
            }
            throw CloudSeedError(
                .missingAsset,
                "the asset file '\(path)' does not exist (looked in \(base.path)\(closest ?? "")); fix the path, or pass \(option: .allowDangling) to leave it out",
                at: position)
        }
        guard data.count <= maximumAssetSize else {
            throw CloudSeedError(
                .limitExceeded, "the asset file '\(path)' is \(data.count) bytes, over CloudKit's 50 MB limit",
                at: position)
        }
        let checksum = SHA256.hexDigest(of: data)
        contents[checksum] = data
        return AssetReference(fileChecksum: checksum, size: Int64(data.count))
    }

    /// The name of the file beside where `url` points whose name is closest to its, where one is
    /// close: the same but for case, or a few characters apart.
    static func closestFile(to url: URL) -> String? {
        let folder = url.deletingLastPathComponent().path
        let wanted = Array(url.lastPathComponent.lowercased())
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return nil }
        let scored = names.filter { isFile($0, in: folder) }.map {
            (EditDistance.between(wanted, Array($0.lowercased())), $0)
        }
        guard let (distance, name) = scored.min(by: { ($0.0, $0.1) < ($1.0, $1.1) }),
            distance <= max(2, wanted.count / 4)
        else { return nil }
        return name
    }
}
