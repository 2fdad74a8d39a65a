import ArgumentParser
import CloudSeed
import Foundation

@main
struct CloudSeedCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cloudseed",
        abstract:
            "Seed data for CloudKit-style container stores: import, seed, query, export, back up and restore records.",
        discussion: """
            Examples:
              cloudseed seed SampleData/gallery.json
              cloudseed import SampleData/ToDoItems/ToDoItems.plist
              cloudseed export --format jsonl
              cloudseed backup --out backups/today

            Exit codes: 0 success; 1 the input or the store refused the run (nothing was written); 64 the command line is wrong.
            """,
        subcommands: [
            ImportCommand.self, SeedCommand.self, ExportCommand.self, BackupCommand.self, RestoreCommand.self,
            QueryCommand.self, DeleteCommand.self, SchemaCommand.self, RoleCommand.self, InspectCommand.self,
            ServeCommand.self, PushCommand.self, PullCommand.self,
        ]
    )
}

/// Runs a command body, printing our errors as `error: FILE:LINE:COLUMN: ...` and exiting 1;
/// a command that `writes` says that nothing was written.
func reportingErrors(writes: Bool = true, _ body: () throws -> Void) throws {
    do {
        try body()
    } catch let error as CloudSeedError {
        for error in error.allErrors { printError(error.described(wordingOptions: { $0.flag })) }
        if error.allErrors.count >= CloudSeedError.limit { printError("stopped after \(CloudSeedError.limit) errors") }
        if writes { printError("nothing was written") }
        throw ExitCode(1)
    }
}

func printError(_ message: String) {
    FileHandle.standardError.write(Data("error: \(message)\n".utf8))
}

/// Writes text to standard output, or to a file for `--out`.
struct OutputSink {
    private let handle: FileHandle

    init(path: String?) throws {
        if let path, path != "-" {
            guard FileManager.default.createFile(atPath: path, contents: nil),
                let handle = FileHandle(forWritingAtPath: path)
            else {
                throw CloudSeedError(
                    .fileAccess, "cannot write the output file; check the folder exists and is writable",
                    at: SourcePosition(file: path))
            }
            self.handle = handle
        } else {
            handle = FileHandle.standardOutput
        }
    }

    func write(_ text: String) {
        handle.write(Data(text.utf8))
    }

    func write(_ bytes: [UInt8]) {
        handle.write(Data(bytes))
    }
}

/// Gathers output into large writes: an export writes a line per record.
final class BufferedOutput {
    private let sink: OutputSink
    private var buffer: [UInt8] = []
    private static let capacity = 1 << 16

    init(_ sink: OutputSink) {
        self.sink = sink
        buffer.reserveCapacity(Self.capacity)
    }

    func write(_ bytes: [UInt8]) {
        if buffer.isEmpty && bytes.count >= Self.capacity { return sink.write(bytes) }
        buffer += bytes
        if buffer.count >= Self.capacity { flush() }
    }

    func write(_ text: String) { write(Array(text.utf8)) }

    /// Writes what is gathered; call it once the output is complete.
    func flush() {
        guard !buffer.isEmpty else { return }
        sink.write(buffer)
        buffer.removeAll(keepingCapacity: true)
    }
}
