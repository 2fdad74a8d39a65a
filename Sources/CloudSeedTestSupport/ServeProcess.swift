public import Foundation

/// `cloudseed serve` started as a process on a free loopback port, as a user starts it; stopped
/// (and waited for) when the value is released.
public final class ServeProcess: @unchecked Sendable {
    /// `http://127.0.0.1:PORT`.
    public let baseURL: String
    private let process: Process

    /// Starts `cloudseed serve --port 0` with `arguments` in `folder`; returns once it listens.
    public init(_ arguments: [String], in folder: URL) throws {
        process = Process()
        process.executableURL = CommandRunner.productsFolder.appendingPathComponent("cloudseed")
        process.arguments = ["serve", "--port", "0"] + arguments
        process.currentDirectoryURL = folder
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        // "Serving STORE on http://127.0.0.1:PORT (…)"
        var text = ""
        while !text.contains(" (") {
            guard let byte = try output.fileHandleForReading.read(upToCount: 1), !byte.isEmpty else {
                throw ServeProcessError(message: "cloudseed serve stopped before it listened: \(text)")
            }
            text += String(decoding: byte, as: UTF8.self)
        }
        guard let start = text.range(of: "http://"),
            let end = text.range(of: " (", range: start.upperBound..<text.endIndex)
        else {
            throw ServeProcessError(message: "cloudseed serve printed no address: \(text)")
        }
        baseURL = String(text[start.lowerBound..<end.lowerBound])
    }

    deinit {
        process.terminate()
        process.waitUntilExit()
    }
}

/// `cloudseed serve` did not start.
public struct ServeProcessError: Error {
    public var message: String
}
