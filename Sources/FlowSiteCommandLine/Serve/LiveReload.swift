import Dispatch
import FlowSiteUtilities
import Foundation

/// The push channel of `serve --watch`: Server-Sent Events to a script added to served pages (not to the files),
/// which reload after a rebuild or show its error. A page that (re)connects is told the current build and error.
final class LiveReload: Sendable {
    /// Where the script and the channel live, below the base path.
    static let scriptPath = "__flowsite/live-reload.js"
    static let eventsPath = "__flowsite/events"
    /// The script pages load (`Resources/live-reload.js`), a file rather than inline code so that a page's
    /// Content-Security-Policy need only allow its own origin; it shows messages with `textContent`, never as HTML.
    static let script = Array(EmbeddedFiles.text("live-reload.js").utf8)
    /// How long the browser waits before reconnecting to a lost channel.
    static let retryMilliseconds = 1000

    private struct State {
        var build = 1
        var error: String?
        var listeners: [Int: EventQueue] = [:]
        var nextListener = 0
        var closed = false
    }

    /// Names this server process, so that a page that reconnects can tell a new server.
    private let session: String
    private let state = Locked(State())

    init(session: String = String(UInt64.random(in: 0...UInt64.max), radix: 36)) {
        self.session = session
    }

    /// The current build, as the pages carry it (`data-build` on the script).
    var buildID: String { state.withLock { "\(session)-\($0.build)" } }

    /// A rebuild was swapped in: pages reload, or refetch stylesheets when `stylesheetsOnly`; clears the error.
    func rebuilt(stylesheetsOnly: Bool) {
        broadcast { state in
            state.build += 1
            state.error = nil
            return Self.event("reload", ["build": "\(session)-\(state.build)", "css": stylesheetsOnly])
        }
    }

    /// A rebuild failed and the old site is still served: pages show `message` over it until the next good build.
    func failed(_ message: String) {
        broadcast { state in
            state.error = message
            return Self.event("build-error", ["build": "\(session)-\(state.build)", "message": message])
        }
    }

    /// Ends every page's connection; their browsers reconnect to whichever server comes next.
    func close() {
        let listeners = state.withLock { state in
            state.closed = true
            defer { state.listeners = [:] }
            return state.listeners
        }
        for queue in listeners.values { queue.finish() }
    }

    /// A comment line that keeps idle connections open through proxies and finds closed ones.
    func keepAlive() {
        broadcast { _ in ": keep-alive\n\n" }
    }

    private func broadcast(_ make: (inout State) -> String) {
        let (text, listeners) = state.withLock { state in (make(&state), Array(state.listeners.values)) }
        for queue in listeners { queue.push(text) }
    }

    /// A new listener's queue of event texts, starting with the reconnect delay and a `hello` (build and error).
    func subscribe() -> (id: Int, events: EventQueue) {
        let queue = EventQueue()
        let id = state.withLock { state -> Int? in
            guard !state.closed else { return nil }
            let id = state.nextListener
            state.nextListener += 1
            state.listeners[id] = queue
            let hello = Self.event(
                "hello", ["build": "\(session)-\(state.build)", "error": state.error.map { $0 as Any } ?? NSNull()])
            queue.push("retry: \(Self.retryMilliseconds)\n" + hello)
            return id
        }
        guard let id else {
            queue.finish()
            return (-1, queue)
        }
        return (id, queue)
    }

    /// Ends one listener's stream (its response then ends).
    func unsubscribe(_ id: Int) {
        let queue = state.withLock { $0.listeners.removeValue(forKey: id) }
        queue?.finish()
    }

    /// The tag added to pages: the script, with the build the page belongs to.
    func scriptTag(basePath: String) -> String {
        #"<script src="\#(basePath)\#(Self.scriptPath)" data-build="\#(buildID)" defer></script>"#
    }

    /// One event in the wire format: its name, and its data as one line of JSON.
    static func event(_ name: String, _ data: [String: Any]) -> String {
        let json =
            (try? JSONSerialization.data(withJSONObject: data, options: [.sortedKeys, .withoutEscapingSlashes]))
            ?? Data("{}".utf8)
        return "event: \(name)\ndata: \(String(decoding: json, as: UTF8.self))\n\n"
    }
}

/// One listener's event texts, handed from the side that broadcasts them to the connection's thread, which waits
/// for them.
final class EventQueue: Sendable {
    private let state = Locked<(texts: [String], finished: Bool)>(([], false))
    private let arrived = DispatchSemaphore(value: 0)

    func push(_ text: String) {
        state.withLock { $0.texts.append(text) }
        arrived.signal()
    }

    /// Ends the queue: `next()` returns what is left, then `nil`.
    func finish() {
        state.withLock { $0.finished = true }
        arrived.signal()
    }

    /// The next text, waiting for one; `nil` once the queue is finished and empty.
    func next() -> String? {
        while true {
            let (text, finished) = state.withLock { state -> (String?, Bool) in
                state.texts.isEmpty ? (nil, state.finished) : (state.texts.removeFirst(), false)
            }
            if let text { return text }
            if finished { return nil }
            arrived.wait()
        }
    }
}
