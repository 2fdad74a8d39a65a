public import Foundation

/// What a run of the `cloudseed` binary printed and returned.
public struct CommandResult: Sendable {
    public var status: Int32
    public var standardOutput: String
    public var standardError: String
}

/// Runs the built `cloudseed` executable, as a user would from a shell.
public enum CommandRunner {
    /// The folder SwiftPM put the products in (the test bundle lives there too).
    public static var productsFolder: URL {
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            return bundle.bundleURL.deletingLastPathComponent()
        }
        return Bundle.main.bundleURL
    }

    /// Runs `cloudseed` with `arguments` in `folder`, with `input` on standard input. `CLOUDSEED_STORE`
    /// is unset unless `extraEnvironment` sets it, so a developer's own store never leaks into a test.
    public static func run(
        _ arguments: [String], in folder: URL, input: String? = nil, extraEnvironment: [String: String] = [:]
    ) throws -> CommandResult {
        let process = Process()
        process.executableURL = productsFolder.appendingPathComponent("cloudseed")
        process.arguments = arguments
        process.currentDirectoryURL = folder
        var environment = ProcessInfo.processInfo.environment
        environment["TZ"] = "Pacific/Auckland"
        environment["LANG"] = "de_DE.UTF-8"
        environment["CLOUDSEED_STORE"] = nil
        environment.merge(extraEnvironment) { $1 }
        process.environment = environment
        let output = Pipe()
        let error = Pipe()
        let inputPipe = Pipe()
        process.standardOutput = output
        process.standardError = error
        process.standardInput = inputPipe
        try process.run()
        if let input { inputPipe.fileHandleForWriting.write(Data(input.utf8)) }
        try inputPipe.fileHandleForWriting.close()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return CommandResult(
            status: process.terminationStatus,
            standardOutput: String(decoding: outputData, as: UTF8.self),
            standardError: String(decoding: errorData, as: UTF8.self))
    }
}
