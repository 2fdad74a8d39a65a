import CloudSeedCore

/// Reads rows from bytes already in memory, for fuzzing and for tools that do not have a file.
package enum InMemoryReading {
    /// Calls `body` with each row of `bytes` read as `format`; errors name `file`.
    package static func forEachRow(
        in bytes: [UInt8], format: SourceFormat, file: String = "-", _ body: (SourceRow) throws -> Void
    ) throws {
        let input = { ChunkedInput(bytes: bytes) }
        let reader: any SourceReader =
            switch format {
            case .csv: CSVReader(input: input, file: file, options: CSVOptions())
            case .tsv: CSVReader(input: input, file: file, options: CSVOptions(delimiter: 9))
            case .json: JSONReader(input: input, file: file, isLines: false)
            case .jsonLines: JSONReader(input: input, file: file, isLines: true)
            case .propertyList: PropertyListReader(input: input, file: file)
            }
        try reader.forEachRow(body)
    }
}
