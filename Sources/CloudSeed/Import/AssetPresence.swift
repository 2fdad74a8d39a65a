/// Checks that the assets a record names have their bytes in the store. An ASSETID given as
/// metadata only (a checksum and a size, as CloudKit JSON carries it) names bytes uploaded
/// before; where the store lacks them the record is refused, unless `--allow-dangling` keeps the
/// asset as metadata only.
struct AssetPresence {
    private let store: any StoreBackend
    /// Checksums whose bytes the store was found to hold.
    private var present: Set<String> = []

    init(store: any StoreBackend) {
        self.store = store
    }

    /// Throws for the first asset of `record`, by field name, whose bytes the store does not hold.
    mutating func check(_ record: CloudRecord) throws {
        guard record.fields.values.contains(where: \.holdsAssets) else { return }
        for (name, value) in record.fields.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) {
            try value.forEachAsset { asset in
                guard !present.contains(asset.fileChecksum) else { return }
                guard try store.hasAssetContent(asset.fileChecksum) else {
                    throw CloudSeedError(
                        .missingAsset,
                        "field '\(name)' names the asset \(asset.fileChecksum), whose bytes are not in the store; give the asset's file path instead, or pass \(option: .allowDangling) to keep it as metadata only"
                    )
                }
                present.insert(asset.fileChecksum)
            }
        }
    }
}

extension RecordValue {
    /// Whether the value is an asset or a list of them.
    fileprivate var holdsAssets: Bool {
        switch self {
        case .asset, .list(.asset, _): true
        default: false
        }
    }
}
