import CloudSeedCore
import Foundation

extension AppModel {
    /// Reads the model at `paths`: one `.xcdatamodeld` package (its current version), one
    /// `.xcdatamodel` folder or its `contents` file; or Swift source files and folders holding
    /// SwiftData `@Model` classes.
    public init(contentsOf paths: [String]) throws {
        guard let first = paths.first else {
            throw CloudSeedError(.invalidOption, "name the model: a .xcdatamodeld, or SwiftData sources")
        }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: first, isDirectory: &isFolder) else {
            throw CloudSeedError(
                .fileAccess, "no such model; give a .xcdatamodeld, a .xcdatamodel, its contents file, or Swift sources",
                at: SourcePosition(file: first))
        }
        let swiftFiles = try paths.flatMap(Self.swiftFiles(at:))
        if !swiftFiles.isEmpty {
            self = try SwiftDataModelFiles.read(swiftFiles)
            return
        }
        guard paths.count == 1 else {
            throw CloudSeedError(
                .invalidOption, "a Core Data model is one .xcdatamodeld; name one", at: SourcePosition(file: paths[1]))
        }
        let contents = try Self.contentsFile(of: first, isFolder: isFolder.boolValue)
        guard let data = FileManager.default.contents(atPath: contents) else {
            throw CloudSeedError(.fileAccess, "cannot read the model file", at: SourcePosition(file: contents))
        }
        self = try CoreDataModelFile.read(data, file: contents)
    }

    /// The `contents` file a model path stands for.
    private static func contentsFile(of path: String, isFolder: Bool) throws -> String {
        guard isFolder else { return path }
        let folder = URL(fileURLWithPath: path)
        if folder.pathExtension == "xcdatamodeld" {
            return try contentsFile(of: currentVersion(of: path), isFolder: true)
        }
        let contents = folder.appendingPathComponent("contents").path
        guard FileManager.default.fileExists(atPath: contents) else {
            throw CloudSeedError(
                .fileAccess,
                "this folder holds no model: no contents file and no Swift sources; give a .xcdatamodeld, a .xcdatamodel or SwiftData sources",
                at: SourcePosition(file: path))
        }
        return path.hasSuffix("/") ? path + "contents" : path + "/contents"
    }

    /// The `.xcdatamodel` a `.xcdatamodeld` package makes current: the one its `.xccurrentversion`
    /// names, or its only version.
    private static func currentVersion(of package: String) throws -> String {
        let folder = package.hasSuffix("/") ? package : package + "/"
        let marker = folder + ".xccurrentversion"
        if let data = FileManager.default.contents(atPath: marker) {
            let plist = try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any]
            guard let name = plist?["_XCCurrentVersionName"] as? String, !name.isEmpty else {
                throw CloudSeedError(
                    .malformedSource,
                    ".xccurrentversion names no version (_XCCurrentVersionName); set the current version in Xcode",
                    at: SourcePosition(file: marker))
            }
            return folder + name
        }
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: package)) ?? [])
            .filter { $0.hasSuffix(".xcdatamodel") }
        guard versions.count == 1 else {
            throw CloudSeedError(
                .fileAccess,
                versions.isEmpty
                    ? "the package holds no .xcdatamodel version"
                    : "the package has \(versions.count) versions and no .xccurrentversion naming the current one; set the current version in Xcode",
                at: SourcePosition(file: package))
        }
        return folder + versions[0]
    }

    /// The Swift files at `path` (itself, or those in its folder and below, in name order).
    private static func swiftFiles(at path: String) throws -> [String] {
        if path.hasSuffix(".swift") { return [path] }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            throw CloudSeedError(.fileAccess, "no such file or folder", at: SourcePosition(file: path))
        }
        guard isFolder.boolValue, !path.hasSuffix(".xcdatamodeld"), !path.hasSuffix(".xcdatamodel") else { return [] }
        let folder = path.hasSuffix("/") ? path : path + "/"
        let found = FileManager.default.enumerator(atPath: path)?.compactMap { $0 as? String } ?? []
        return found.filter { $0.hasSuffix(".swift") }.sorted().map { folder + $0 }
    }
}
