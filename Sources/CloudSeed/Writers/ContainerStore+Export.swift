extension ContainerStore {
    /// Writes the records of `scope` (of `recordType` only, when given) as `format`. CSV goes one file
    /// per record type into `csvFolder`, or to the output when there is none. With `assetsFolder`,
    /// each asset's file the store holds is written there too, named by its checksum. `output` is
    /// called once the export is known to be possible, for where the bytes go.
    package func export(
        _ scope: StoreScope, recordType: String?, as format: ExportFormat, csvFolder: String?,
        assetsFolder: String?, output: () throws -> ([UInt8]) -> Void
    ) throws {
        try exclusively {
            if let recordType { try backend.checkRecordType(recordType, in: scope.schemaScope) }
            let assets = try assetsFolder.map { try AssetExporter(store: backend, folder: $0) }
            let write = try output()
            switch format {
            case .csv:
                let exporter = try CSVExporter(
                    folder: csvFolder, schema: try backend.schema(of: scope.schemaScope), standardOutput: write)
                if let assets {
                    try backend.forEachRecord(in: scope, recordType: recordType) { record in
                        try assets.write(assetsOf: record)
                        try exporter.append(record)
                    }
                } else {
                    try backend.forEachRecordCSVLine(
                        in: scope, recordType: recordType, columns: { try exporter.columns(of: $0) },
                        line: { try exporter.append(line: $1, recordType: $0) }, record: exporter.append)
                }
                try exporter.finish()
            case .jsonl where assets == nil:
                try backend.forEachRecordJSONLine(in: scope, recordType: recordType, write)
            default:
                var writer = RecordWriter(format: format) { write(Array($0.utf8)) }
                writer.begin()
                try backend.forEachRecord(in: scope, recordType: recordType) { record in
                    try assets?.write(assetsOf: record)
                    writer.append(record)
                }
                writer.end()
            }
        }
    }
}
