import Foundation

/// Writes the asset files of exported records into a folder, each named by its SHA-256.
package struct AssetExporter {
    let store: any StoreBackend
    let folder: URL

    package init(store: any StoreBackend, folder: String) throws {
        self.store = store
        self.folder = URL(fileURLWithPath: folder)
        do {
            try FileManager.default.createDirectory(at: self.folder, withIntermediateDirectories: true)
        } catch {
            throw CloudSeedError(
                .fileAccess, "cannot create the assets folder; check the path and its permissions",
                at: SourcePosition(file: folder))
        }
    }

    /// Writes the files of a record's assets that the store holds and the folder lacks.
    package func write(assetsOf record: CloudRecord) throws {
        for value in record.fields.values {
            try value.forEachAsset { asset in
                let file = folder.appendingPathComponent(asset.fileChecksum)
                guard !FileManager.default.fileExists(atPath: file.path),
                    let content = try store.assetContent(asset.fileChecksum)
                else { return }
                try content.write(to: file)
            }
        }
    }
}
