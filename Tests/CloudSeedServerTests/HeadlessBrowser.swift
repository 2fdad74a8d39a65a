import CloudSeedTestSupport
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Debian's headless Chromium driven as a user drives a browser: it loads pages, and a test clicks,
/// types and picks files through the DevTools protocol (`Input.dispatchMouseEvent`,
/// `Input.insertText`, `DOM.setFileInputFiles`), spoken over the pipe Chromium opens with
/// `--remote-debugging-pipe` (file descriptors 3 and 4, messages ended by a NUL byte).
final class HeadlessBrowser: @unchecked Sendable {
    static let executable = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private let process: pid_t
    private let commands: Int32
    private let profile: TemporaryFolder
    private let lock = NSLock()
    private var nextID = 0
    private var waiting: [Int: CheckedContinuation<Data, any Error>] = [:]
    private var closed = false
    /// The page's session, once attached.
    private var session: String?

    /// Browsers take turns: several Chromiums beside the rest of the tests on two cores load pages
    /// too slowly for a test's waits.
    static let turns = Turns()

    /// Starts Chromium with one blank page, once no other test's browser is open.
    init() async throws {
        guard let executable = Self.executable else { throw Failure(description: "chromium is not installed") }
        await Self.turns.take()
        guard let profile = try? TemporaryFolder() else {
            await Self.turns.give()
            throw Failure(description: "no profile folder")
        }
        self.profile = profile
        var toBrowser: [Int32] = [0, 0]
        var fromBrowser: [Int32] = [0, 0]
        guard pipe(&toBrowser) == 0, pipe(&fromBrowser) == 0 else {
            await Self.turns.give()
            throw Failure(description: "no pipe")
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, toBrowser[0], 3)
        posix_spawn_file_actions_adddup2(&actions, fromBrowser[1], 4)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let arguments = [
            executable, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
            "--user-data-dir=\(profile.url.path)", "--remote-debugging-pipe", "--window-size=1280,900", "--lang=en-US",
            "about:blank",
        ]
        var argv = arguments.map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, nil, &argv, environ)
        Glibc.close(toBrowser[0])
        Glibc.close(fromBrowser[1])
        guard spawned == 0 else {
            await Self.turns.give()
            throw Failure(description: "chromium did not start: \(spawned)")
        }
        process = pid
        commands = toBrowser[1]
        let events = fromBrowser[0]
        Thread.detachNewThread { [self] in readMessages(from: events) }
        do {
            let target = try await send("Target.createTarget", ["url": "about:blank"])
            let attached = try await send(
                "Target.attachToTarget", ["targetId": target["targetId"] ?? "", "flatten": true])
            session = attached["sessionId"] as? String
            _ = try await send("Page.enable")
        } catch {
            close()
            throw error
        }
    }

    /// Loads `url` afresh (a page left first, so that a URL differing only in its fragment loads
    /// too) and waits until its document is complete.
    func open(_ url: String) async throws {
        _ = try await send("Page.navigate", ["url": "about:blank"])
        try await waitUntil("location.href === 'about:blank' && document.readyState === 'complete'")
        _ = try await send("Page.navigate", ["url": url])
        try await waitUntil("document.readyState === 'complete' && location.href !== 'about:blank'")
    }

    /// The value of a JavaScript expression in the page, promises awaited.
    @discardableResult
    func evaluate(_ expression: String) async throws -> Any? {
        let answer = try await send(
            "Runtime.evaluate", ["expression": expression, "returnByValue": true, "awaitPromise": true])
        if let exception = answer["exceptionDetails"] as? [String: Any] {
            throw Failure(description: "\(expression): \(exception["exception"] ?? exception["text"] ?? "")")
        }
        return (answer["result"] as? [String: Any])?["value"]
    }

    /// Waits until `condition` (a JavaScript expression) is true, for at most `seconds`.
    func waitUntil(_ condition: String, seconds: Double = 30) async throws {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try await evaluate("Boolean(\(condition))") as? Bool == true { return }
            try await Task.sleep(nanoseconds: 50_000_000)
        }
        let page = try await evaluate("document.body ? document.body.innerText.slice(-1500) : ''") ?? ""
        throw Failure(description: "waited \(seconds) s for \(condition); the page shows:\n\(page)")
    }

    /// The text of the first element `selector` finds, once there is one.
    func text(_ selector: String) async throws -> String {
        try await waitUntil("document.querySelector(\(Self.literal(selector)))")
        return try await evaluate("document.querySelector(\(Self.literal(selector))).textContent") as? String ?? ""
    }

    /// Clicks the middle of the first element `selector` finds (or `fromLeft` points from its left
    /// edge), as a mouse does, once there is one.
    func click(_ selector: String, fromLeft: Double? = nil) async throws {
        try await waitUntil("document.querySelector(\(Self.literal(selector)))")
        let x = fromLeft.map { "r.left + \($0)" } ?? "r.left + r.width / 2"
        let point =
            try await evaluate(
                """
                (() => { const e = document.querySelector(\(Self.literal(selector))); e.scrollIntoView({block: "center"});
                  const r = e.getBoundingClientRect(); return [\(x), r.top + r.height / 2]; })()
                """) as? [Double] ?? []
        guard point.count == 2 else { throw Failure(description: "\(selector) has no place on the page") }
        for type in ["mouseMoved", "mousePressed", "mouseReleased"] {
            _ = try await send(
                "Input.dispatchMouseEvent",
                [
                    "type": type, "x": point[0], "y": point[1], "button": "left",
                    "clickCount": type == "mouseMoved" ? 0 : 1,
                ])
        }
    }

    /// Clicks into the field `selector` finds, selects what it holds and types `text` over it.
    func type(_ text: String, into selector: String) async throws {
        try await click(selector)
        try await evaluate("document.querySelector(\(Self.literal(selector))).select?.()")
        _ = try await send("Input.insertText", ["text": text])
    }

    /// Clicks into the field `selector` finds and presses the keys of `text`, one by one, as a
    /// keyboard does: what a date picker takes, segment by segment.
    func press(_ text: String, in selector: String) async throws {
        // Clicked at its start: a date picker's first segment.
        try await click(selector, fromLeft: 6)
        for character in text {
            let key = String(character)
            let code = Int(character.uppercased().unicodeScalars.first?.value ?? 0)
            let name = character.isNumber ? "Digit\(key)" : "Key\(key.uppercased())"
            let event: [String: Any] = [
                "key": key, "code": name, "windowsVirtualKeyCode": code, "nativeVirtualKeyCode": code,
            ]
            _ = try await send(
                "Input.dispatchKeyEvent", event.merging(["type": "keyDown", "text": key, "unmodifiedText": key]) { $1 })
            _ = try await send("Input.dispatchKeyEvent", event.merging(["type": "keyUp"]) { $1 })
        }
    }

    /// Picks `files` in the file input `selector` finds, as the file dialog does.
    func choose(_ files: [String], in selector: String) async throws {
        try await waitUntil("document.querySelector(\(Self.literal(selector)))")
        let document = try await send("DOM.getDocument")
        let root = (document["root"] as? [String: Any])?["nodeId"] ?? 0
        let node = try await send("DOM.querySelector", ["nodeId": root, "selector": selector])
        _ = try await send("DOM.setFileInputFiles", ["files": files, "nodeId": node["nodeId"] ?? 0])
    }

    /// Closes the browser and waits for it to end.
    func close() {
        lock.lock()
        let alreadyClosed = closed
        closed = true
        lock.unlock()
        guard !alreadyClosed else { return }
        Glibc.close(commands)
        kill(process, SIGKILL)
        var status: Int32 = 0
        waitpid(process, &status, 0)
        Task { await Self.turns.give() }
    }

    deinit {
        close()
    }

    /// Sends a DevTools command (to the page, once attached) and waits for its result.
    private func send(_ method: String, _ parameters: [String: Any] = [:]) async throws -> [String: Any] {
        let result = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Data, any Error>) in
            lock.lock()
            nextID += 1
            let id = nextID
            var message: [String: Any] = ["id": id, "method": method, "params": parameters]
            if let session { message["sessionId"] = session }
            guard !closed, var bytes = try? JSONSerialization.data(withJSONObject: message) else {
                lock.unlock()
                continuation.resume(throwing: Failure(description: "the browser is closed"))
                return
            }
            waiting[id] = continuation
            lock.unlock()
            bytes.append(0)
            bytes.withUnsafeBytes { buffer in
                var offset = 0
                while offset < buffer.count {
                    let written = write(commands, buffer.baseAddress! + offset, buffer.count - offset)
                    guard written > 0 else { break }
                    offset += written
                }
            }
        }
        return try JSONSerialization.jsonObject(with: result) as? [String: Any] ?? [:]
    }

    /// Hands each answer Chromium writes to the command waiting for it, until the pipe closes.
    private func readMessages(from descriptor: Int32) {
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = read(descriptor, &buffer, buffer.count)
            guard count > 0 else { break }
            pending += buffer[0..<count]
            while let end = pending.firstIndex(of: 0) {
                let message = Data(pending[..<end])
                pending.removeSubrange(...end)
                guard let object = try? JSONSerialization.jsonObject(with: message) as? [String: Any],
                    let id = object["id"] as? Int
                else { continue }
                lock.lock()
                let continuation = waiting.removeValue(forKey: id)
                lock.unlock()
                if let error = object["error"] as? [String: Any] {
                    continuation?.resume(throwing: Failure(description: "\(error["message"] ?? error)"))
                } else {
                    let result = try? JSONSerialization.data(withJSONObject: object["result"] ?? [String: Any]())
                    continuation?.resume(returning: result ?? Data("{}".utf8))
                }
            }
        }
        Glibc.close(descriptor)
        lock.lock()
        let left = waiting
        waiting = [:]
        lock.unlock()
        for continuation in left.values { continuation.resume(throwing: Failure(description: "the browser ended")) }
    }

    /// `text` as a JavaScript string literal.
    static func literal(_ text: String) -> String {
        let data = try? JSONSerialization.data(withJSONObject: [text])
        return data.map { String(decoding: $0.dropFirst().dropLast(), as: UTF8.self) } ?? "\"\""
    }
}

/// A turn at a shared thing, given to those waiting in the order they asked.
actor Turns {
    private var taken = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    func take() async {
        guard taken else {
            taken = true
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    func give() {
        if waiting.isEmpty { taken = false } else { waiting.removeFirst().resume() }
    }
}
