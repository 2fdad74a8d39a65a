import CloudSeed
public import Foundation

/// A fresh folder for one test, removed when the value is released.
public final class TemporaryFolder: @unchecked Sendable {
    public let url: URL

    public init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("cloudseed-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// The path of `name` inside the folder.
    public func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// Writes `text` to `name` inside the folder and returns its path.
    @discardableResult
    public func write(_ name: String, _ text: String) throws -> String {
        let file = url.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: file)
        return file.path
    }
}

/// Paths inside this repository, found from this source file so tests do not depend on the working directory.
public enum Repository {
    public static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The path of a file under `SampleData/`.
    public static func sample(_ relativePath: String) -> String {
        root.appendingPathComponent("SampleData").appendingPathComponent(relativePath).path
    }
}

/// The third-party files in `../shared/examples` beside the checkout, when they are there (CI has them).
public enum SharedExamples {
    public static let folder = Repository.root.deletingLastPathComponent().appendingPathComponent("shared/examples")

    public static var isAvailable: Bool { FileManager.default.fileExists(atPath: folder.path) }

    /// The path of an example, as `plist/CodaJ_TheElements_Elements.plist`.
    public static func path(_ relativePath: String) -> String { folder.appendingPathComponent(relativePath).path }
}

/// The messages a run fails with, as a user reads them; empty when it succeeds.
public func errorMessages(_ body: () throws -> Void) -> [String] {
    do {
        try body()
        return []
    } catch let error as CloudSeedError {
        return error.allErrors.map(\.description)
    } catch {
        return ["\(error)"]
    }
}
