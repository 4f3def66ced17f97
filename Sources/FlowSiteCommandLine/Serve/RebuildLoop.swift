
/// Rebuilds once per burst of changes, never two at once: changes that arrive while a rebuild
/// runs are gathered into one more rebuild right after it, so the site ends up built from the
/// files as they were last saved, however the saves and the builds interleave.
enum RebuildLoop {
    /// Runs until `changes` ends (or the task is cancelled), calling `rebuild` with the paths
    /// that changed since the previous call began.
    static func run(changes: AsyncStream<Set<String>>, rebuild: @Sendable (Set<String>) async -> Void) async {
        let pending = PendingChanges()
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for await batch in changes { pending.add(batch) }
                pending.finish()
            }
            while let batch = await pending.next() {
                await rebuild(batch)
            }
            group.cancelAll()
        }
    }
}

/// Paths that changed and haven't been rebuilt yet, with at most one rebuild waiting for them.
final class PendingChanges: Sendable {
    private struct State {
        var paths: Set<String> = []
        var finished = false
        var waiter: CheckedContinuation<Set<String>?, Never>?
    }

    private let state = Locked(State())

    /// Adds changed paths: to the rebuild that waits for them, or to the next one.
    func add(_ paths: Set<String>) {
        guard !paths.isEmpty else { return }
        let waiter = state.withLock { state -> CheckedContinuation<Set<String>?, Never>? in
            guard let waiter = state.waiter else {
                state.paths.formUnion(paths)
                return nil
            }
            state.waiter = nil
            return waiter
        }
        waiter?.resume(returning: paths)
    }

    /// Every path changed since the last call, waiting for one if there is none; `nil` once
    /// ``finish()`` was called and nothing is left.
    func next() async -> Set<String>? {
        await withCheckedContinuation { continuation in
            let answer = state.withLock { state -> Set<String>?? in
                if !state.paths.isEmpty {
                    defer { state.paths = [] }
                    return .some(state.paths)
                }
                if state.finished { return .some(nil) }
                state.waiter = continuation
                return .none
            }
            if let answer { continuation.resume(returning: answer) }
        }
    }

    /// No more changes will come.
    func finish() {
        let waiter = state.withLock { state -> CheckedContinuation<Set<String>?, Never>? in
            state.finished = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: nil)
    }
}
