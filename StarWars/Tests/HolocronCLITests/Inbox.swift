import FlowSite
import Foundation
import SWAPI

/// Things that arrive in the background (server events, Server-Sent Events), taken in order by
/// a test that waits for each with a timeout, never a fixed sleep.
final class Inbox<Item: Sendable>: Sendable {
    private struct State {
        var items: [Item] = []
        var waiter: CheckedContinuation<Item?, Never>?
        var closed = false
        /// How many items were ever put, so a wait can tell whether one came before its deadline.
        var puts = 0
    }

    /// How a wait's two tasks end: with what was taken, or with the deadline passed after an item came.
    private enum Outcome: Sendable {
        case taken(Item?)
        case cameInTime
    }

    private let state = Locked(State())

    func put(_ item: Item) {
        let waiter = state.withLock { state -> CheckedContinuation<Item?, Never>? in
            state.puts += 1
            guard let waiter = state.waiter else {
                state.items.append(item)
                return nil
            }
            state.waiter = nil
            return waiter
        }
        waiter?.resume(returning: item)
    }

    func close() {
        let waiter = state.withLock { state -> CheckedContinuation<Item?, Never>? in
            state.closed = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: nil)
    }

    /// The next item; throws when none was put within `timeout` or the inbox was closed. An item put in time counts
    /// even if the task taking it runs later: on a busy cooperative pool each wake-up of a wait may queue for seconds.
    func next(within timeout: Duration = .seconds(60), _ what: String = "an item") async throws -> Item {
        let putsBefore = state.withLock { $0.puts }
        return try await withThrowingTaskGroup(of: Outcome.self) { group in
            group.addTask { .taken(await self.take()) }
            group.addTask {
                try await Task.sleep(for: timeout)
                let came = self.state.withLock { $0.puts != putsBefore || !$0.items.isEmpty || $0.closed }
                guard came else { throw TimedOut(what: what, timeout: timeout) }
                return .cameInTime
            }
            defer { group.cancelAll() }
            while let outcome = try await group.next() {
                guard case .taken(let item) = outcome else { continue }
                guard let item else { throw Closed(what: what) }
                return item
            }
            throw Closed(what: what)
        }
    }

    /// Items until one matches, that one last.
    func next(
        until done: (Item) -> Bool, within timeout: Duration = .seconds(60), _ what: String
    ) async throws -> [Item] {
        var taken: [Item] = []
        let deadline = ContinuousClock.now + timeout
        while true {
            let item = try await next(within: max(.zero, deadline - .now), what)
            taken.append(item)
            if done(item) { return taken }
        }
    }

    private func take() async -> Item? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let answer = state.withLock { state -> Item?? in
                    if !state.items.isEmpty { return .some(state.items.removeFirst()) }
                    if state.closed { return .some(nil) }
                    state.waiter = continuation
                    return .none
                }
                if let answer { continuation.resume(returning: answer) }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Item?, Never>? in
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume(returning: nil)
        }
    }

    struct TimedOut: Error, CustomStringConvertible {
        let what: String
        let timeout: Duration
        var description: String { "waited \(timeout) for \(what) in vain" }
    }

    struct Closed: Error, CustomStringConvertible {
        let what: String
        var description: String { "the stream ended while waiting for \(what)" }
    }
}

/// One Server-Sent Event: its name and its data, decoded from JSON.
struct ServerSentEvent: Sendable {
    let name: String
    let data: String

    var json: [String: any Sendable] {
        ((try? JSONSerialization.jsonObject(with: Data(data.utf8))) as? [String: Any] ?? [:]).compactMapValues {
            value -> (any Sendable)? in
            switch value {
            case let text as String: text
            case let number as NSNumber: number.boolValue
            default: nil
            }
        }
    }

    func string(_ key: String) -> String? { json[key] as? String }
}

/// A raw client of the live-reload channel: reads the event stream as a browser's EventSource
/// would and puts each event in an inbox.
final class EventStreamClient: Sendable {
    let events = Inbox<ServerSentEvent>()
    /// Each `retry:` field the server sent.
    let retries = Inbox<Int>()
    private let reader: Task<Void, Never>

    private let stopStream: @Sendable () -> Void

    init(url: String, client: TestHTTP) async throws {
        let (head, chunks, stop) = try await client.stream(url, accept: "text/event-stream")
        guard head.status == 200, head.headers["content-type"]?.hasPrefix("text/event-stream") == true else {
            stop()
            throw BadResponse(status: head.status, headers: "\(head.headers)")
        }
        stopStream = stop
        let events = events
        let retries = retries
        reader = Task {
            var pending = Data()
            let separator = Data("\n\n".utf8)
            for await chunk in chunks {
                pending.append(chunk)
                while let end = pending.range(of: separator) {
                    let block = String(decoding: pending[..<end.lowerBound], as: UTF8.self)
                    pending = Data(pending[end.upperBound...])
                    var name = "message"
                    var data: [String] = []
                    for line in block.split(separator: "\n", omittingEmptySubsequences: false) {
                        if line.hasPrefix("event: ") { name = String(line.dropFirst(7)) }
                        if line.hasPrefix("data: ") { data.append(String(line.dropFirst(6))) }
                        if line.hasPrefix("retry: ") { Int(line.dropFirst(7)).map(retries.put) }
                    }
                    if !data.isEmpty { events.put(ServerSentEvent(name: name, data: data.joined(separator: "\n"))) }
                }
            }
            events.close()
        }
    }

    /// The next event called `name`, skipping others.
    func next(_ name: String, within timeout: Duration = .seconds(60)) async throws -> ServerSentEvent {
        try await events.next(until: { $0.name == name }, within: timeout, "a '\(name)' event").last!
    }

    func stop() {
        stopStream()
        reader.cancel()
    }

    struct BadResponse: Error {
        let status: Int
        let headers: String
    }
}
