import CloudKitWire
public import Foundation

/// Backs up one container of a store into a bundle folder (``BackupLayout``, ``BackupManifest``):
/// the schema of each environment, the records of each zone as CloudKit JSON Lines in the store's
/// order, and the content of every asset the records use that the store holds.
///
/// ```swift
/// let manifest = try BackupWriter(store: store, container: "iCloud.com.example.Gallery").write(to: "backups/gallery")
/// manifest.recordCount   // 9
/// ```
///
/// The store is read in one transaction, so a concurrent import cannot change it half-way. The
/// bundle is written beside its folder and renamed into place when complete (``FolderReplacement``):
/// a backup that fails or is killed never damages an earlier one.
public struct BackupWriter: Sendable {
    /// The store written, held to itself for the length of a run.
    package var containerStore: ContainerStore
    private var store: any StoreBackend { containerStore.backend }
    public var container: String
    /// The time recorded as the manifest's `created`, in milliseconds since 1970.
    public var now: Int64

    /// A writer of `container`'s backups from `store`; `now` is recorded as the bundle's creation time.
    public init(
        store: ContainerStore, container: String = StoreScope.defaultContainer,
        now: Int64 = Int64(Date().timeIntervalSince1970 * 1000)
    ) {
        self.containerStore = store
        self.container = container
        self.now = now
    }

    /// Writes the bundle to `folder`, replacing an earlier backup there once the new one is complete.
    @discardableResult
    public func write(to folder: String) throws -> BackupManifest {
        let replacement = try FolderReplacement(target: folder)
        do {
            let manifest = try containerStore.exclusively {
                try store.write { _ in try writeContents(into: replacement.partial) }
            }
            let manifestFile = try BundleFileWriter(folder: replacement.partial, path: BackupLayout.manifest)
            try manifestFile.write(manifest.json)
            _ = try manifestFile.finish()
            try replacement.commit()
            return manifest
        } catch {
            replacement.discard()
            throw error
        }
    }

    private func writeContents(into folder: URL) throws -> BackupManifest {
        let zones = try store.inventory().zones.filter {
            $0.container == container && $0.recordCounts.values.contains { $0 > 0 }
        }
        let definitions = try ContainerEnvironment.allCases.map {
            try store.schemaDefinition(of: SchemaScope(container: container, environment: $0))
        }
        guard !zones.isEmpty || definitions.contains(where: { !$0.recordTypes.isEmpty || !$0.roles.isEmpty }) else {
            throw CloudSeedError(
                .invalidOption,
                "the store holds no records or schema of \(container); name the container with \(option: .container) (\(option: .inventory) lists them)"
            )
        }
        var files: [BackupManifest.File] = []
        var environments: [BackupManifest.Environment] = []
        var assets = Set<String>()
        for (environment, definition) in zip(ContainerEnvironment.allCases, definitions) {
            let schema = try BundleFileWriter(folder: folder, path: BackupLayout.schema(environment))
            try schema.write(CKSLPrinter.print(definition))
            files.append(try schema.finish())
            var backedUp: [BackupManifest.Zone] = []
            for zone in zones.filter({ $0.environment == environment }).sorted(by: Self.zoneOrder) {
                let scope = StoreScope(
                    container: container, environment: environment, database: zone.database, zoneID: zone.zoneID)
                var counts: [String: Int] = [:]
                for recordType in zone.recordCounts.filter({ $0.value > 0 }).keys.sorted(by: SchemaDefinition.byteOrder)
                {
                    let records = try BundleFileWriter(
                        folder: folder,
                        path: BackupLayout.records(environment, zone.database, zone.zoneID, recordType: recordType))
                    try store.forEachRecord(in: scope, recordType: recordType) { record in
                        try records.write(CloudKitJSON.record(record) + "\n")
                        counts[recordType, default: 0] += 1
                        for value in record.fields.values { value.forEachAsset { assets.insert($0.fileChecksum) } }
                    }
                    files.append(try records.finish())
                }
                backedUp.append(BackupManifest.Zone(database: zone.database, zoneID: zone.zoneID, recordCounts: counts))
            }
            environments.append(BackupManifest.Environment(environment: environment, zones: backedUp))
        }
        for checksum in assets.sorted() {
            guard let content = try store.assetContent(checksum) else { continue }
            let damaged = CloudSeedError(
                .storeFailure,
                "the store's content of asset \(checksum) does not have that SHA-256; the store is damaged, so import the asset again"
            )
            guard BackupLayout.isSHA256(checksum) else { throw damaged }
            let asset = try BundleFileWriter(folder: folder, path: BackupLayout.asset(checksum))
            try asset.write(content)
            let file = try asset.finish()
            guard file.sha256 == checksum else { throw damaged }
            files.append(file)
        }
        return BackupManifest(created: now, container: container, environments: environments, files: files)
    }

    /// Zones by database, then owner, then name, in byte order.
    private static func zoneOrder(_ a: StoreInventory.Zone, _ b: StoreInventory.Zone) -> Bool {
        let keys = [
            (a.database.rawValue, b.database.rawValue), (a.zoneID.ownerName, b.zoneID.ownerName),
            (a.zoneID.zoneName, b.zoneID.zoneName),
        ]
        for (left, right) in keys where left != right { return SchemaDefinition.byteOrder(left, right) }
        return false
    }
}
