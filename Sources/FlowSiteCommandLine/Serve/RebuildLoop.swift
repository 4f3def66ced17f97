import FlowSiteUtilities

/// Rebuilds once per burst of changes, never two at once: changes during a rebuild are gathered into one more
/// right after it, so the site ends up built from the files as last saved.
enum RebuildLoop {
    /// Runs until `changes` ends or is cancelled, giving `rebuild` the paths changed since its previous call began.
    static func run(changes: AsyncStream<Set<String>>, rebuild: @Sendable (Set<String>) async -> Void) async {
        // Paths not yet rebuilt, and a wake-up that holds at most one call for them.
        let pending = Locked<Set<String>>([])
        let (wakeUps, wake) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for await batch in changes where !batch.isEmpty {
                    pending.withLock { $0.formUnion(batch) }
                    wake.yield()
                }
                wake.finish()
            }
            for await _ in wakeUps {
                let batch = pending.withLock { paths in
                    defer { paths = [] }
                    return paths
                }
                if !batch.isEmpty { await rebuild(batch) }
            }
            group.cancelAll()
        }
    }
}
