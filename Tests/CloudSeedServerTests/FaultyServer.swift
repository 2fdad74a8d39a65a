import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
#if canImport(Glibc)
    import Glibc
#endif

/// A loopback HTTP server in front of another, for a client's tests: it keeps every request it
/// takes, and answers `records/modify` requests with `faults` first, one each, in order, then
/// passes requests on. Each answer closes its connection.
final class FaultyServer: @unchecked Sendable {
    enum Fault {
        /// 503 with `{"serverErrorCode": "THROTTLED", "retryAfter": …}`.
        case throttled(retryAfter: Int)
        /// 503 with no body.
        case unavailable
        /// Passes the request on, then closes the connection halfway through the answer.
        case dropAfterForwarding
        /// 200, with each operation of the request answered `ZONE_BUSY` and `retryAfter`.
        case busyRecords(retryAfter: Int)
    }

    struct Taken {
        var path: String
        var headers: [String: String]
        var body: Data
    }

    let baseURL: String
    private let upstream: String
    private let listener: Int32
    private let lock = NSLock()
    private var faults: [Fault]
    private var takenRequests: [Taken] = []
    private let stopped = DispatchSemaphore(value: 0)

    /// The requests taken so far.
    var taken: [Taken] { lock.withLock { takenRequests } }

    init(upstream: String, faults: [Fault]) throws {
        self.upstream = upstream
        self.faults = faults
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(listener, pointer, length) == 0 && listen(listener, 16) == 0
                    && getsockname(listener, pointer, &length) == 0
            }
        }
        guard bound else { throw POSIXError(.EADDRNOTAVAIL) }
        baseURL = "http://127.0.0.1:\(UInt16(bigEndian: address.sin_port))"
        Thread.detachNewThread { [self] in serve() }
    }

    /// Stops taking connections and waits for the server's thread.
    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        stopped.wait()
    }

    private func serve() {
        defer { stopped.signal() }
        while true {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { return }
            defer { close(connection) }
            guard let request = read(connection) else { continue }
            lock.withLock { takenRequests.append(request) }
            let fault = lock.withLock {
                request.path.contains("/records/modify") && !faults.isEmpty ? faults.removeFirst() : nil
            }
            switch fault {
            case .throttled(let retryAfter):
                answer(
                    connection, status: 503,
                    Data(
                        #"{"uuid":"1","serverErrorCode":"THROTTLED","reason":"slow down","retryAfter":\#(retryAfter)}"#
                            .utf8))
            case .unavailable:
                answer(connection, status: 503, Data())
            case .dropAfterForwarding:
                let (_, body) = forward(request)
                let head = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(body.count)\r\n\r\n"
                write(connection, Data(head.utf8) + body.prefix(body.count / 2))
            case .busyRecords(let retryAfter):
                let count =
                    request.body.split(separator: Data(#""operationType""#.utf8), omittingEmptySubsequences: false)
                    .count - 1
                let busy =
                    #"{"recordName":"?","serverErrorCode":"ZONE_BUSY","reason":"busy","retryAfter":\#(retryAfter)}"#
                let records = Array(repeating: busy, count: count).joined(separator: ",")
                answer(connection, status: 200, Data(#"{"records":[\#(records)]}"#.utf8))
            case nil:
                let (status, body) = forward(request)
                answer(connection, status: status, body)
            }
        }
    }

    private func answer(_ connection: Int32, status: Int, _ body: Data) {
        let head =
            "HTTP/1.1 \(status) \(status == 200 ? "OK" : "Error")\r\nContent-Type: application/json\r\n"
            + "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        write(connection, Data(head.utf8) + body)
    }

    private func write(_ connection: Int32, _ data: Data) {
        data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let sent = send(connection, bytes.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
                if sent <= 0 { return }
                offset += sent
            }
        }
    }

    /// One request: its path, headers (names in lower case) and body.
    private func read(_ connection: Int32) -> Taken? {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        var headEnd: Range<Data.Index>?
        var expected = Int.max
        while data.count < expected {
            let count = recv(connection, &buffer, buffer.count, 0)
            guard count > 0 else { return nil }
            data.append(contentsOf: buffer[0..<count])
            if headEnd == nil, let end = data.range(of: Data("\r\n\r\n".utf8)) {
                headEnd = end
                let head = String(decoding: data[..<end.lowerBound], as: UTF8.self)
                let length = head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
                expected =
                    end.upperBound
                    + (length.flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0)
            }
        }
        guard let headEnd else { return nil }
        let lines = String(decoding: data[..<headEnd.lowerBound], as: UTF8.self).split(separator: "\r\n")
        let parts = lines.first?.split(separator: " ") ?? []
        guard parts.count >= 2 else { return nil }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        return Taken(path: String(parts[1]), headers: headers, body: Data(data[headEnd.upperBound...]))
    }

    /// Passes `request` on to the server behind; returns its status and body.
    private func forward(_ request: Taken) -> (Int, Data) {
        var forwarded = URLRequest(url: URL(string: upstream + request.path)!)
        forwarded.httpMethod = "POST"
        forwarded.httpBody = request.body
        for (name, value) in request.headers where name.hasPrefix("x-apple-cloudkit") || name == "content-type" {
            forwarded.setValue(value, forHTTPHeaderField: name)
        }
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var result = (502, Data())
        URLSession.shared.dataTask(with: forwarded) { data, response, _ in
            result = ((response as? HTTPURLResponse)?.statusCode ?? 502, data ?? Data())
            done.signal()
        }.resume()
        done.wait()
        return result
    }
}
