import CloudSeed
import CloudSeedServer
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A server started in this process on a free loopback port for one test, stopped (and waited
/// for) when the test's body returns.
struct RunningServer {
    /// `http://127.0.0.1:PORT`.
    let baseURL: String

    /// What the server answered.
    struct Answer {
        var status: Int
        var body: String
        var data: Data
        var contentType: String? = nil
    }

    /// Runs `body` with `server` listening, then stops the server.
    static func with<Result>(_ server: CloudKitServer, _ body: (RunningServer) async throws -> Result) async throws
        -> Result
    {
        var server = server
        server.host = "127.0.0.1"
        server.port = 0
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let task = Task { [server] in
            defer { continuation.finish() }
            try await server.run { continuation.yield($0) }
        }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else {
            _ = try await task.value
            throw CloudSeedError(.storeFailure, "the server stopped before it listened")
        }
        let result: Result
        do {
            result = try await body(RunningServer(baseURL: "http://127.0.0.1:\(port)"))
        } catch {
            task.cancel()
            _ = try? await task.value
            throw error
        }
        task.cancel()
        try await task.value
        return result
    }

    /// POSTs `json` to `path` (`/database/1/…`).
    func post(_ path: String, _ json: String, headers: [String: String] = [:]) async throws -> Answer {
        try await send(path, method: "POST", body: Data(json.utf8), headers: headers)
    }

    func get(_ path: String) async throws -> Answer {
        try await send(path, method: "GET", body: nil, headers: [:])
    }

    func send(_ path: String, method: String, body: Data?, headers: [String: String]) async throws -> Answer {
        var request = URLRequest(url: URL(string: path.hasPrefix("http") ? path : baseURL + path)!)
        request.httpMethod = method
        request.httpBody = body
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let session = URLSession(configuration: .ephemeral)
        let (data, response) = try await session.data(for: request)
        let http = response as? HTTPURLResponse
        return Answer(
            status: http?.statusCode ?? 0, body: String(decoding: data, as: UTF8.self), data: data,
            contentType: http?.value(forHTTPHeaderField: "Content-Type"))
    }
}

extension RunningServer.Answer {
    /// The body as a JSON object.
    func object() throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }
}
