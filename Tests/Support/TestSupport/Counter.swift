import Synchronization

/// A count that the closures of a property check (run on any thread) add to, read once the
/// check is over.
public final class Counter: Sendable {
    private let count = Atomic<Int>(0)

    public init() {}

    public func add() { count.add(1, ordering: .relaxed) }

    /// Read once the closures that add have returned (their tasks' ends order the adds before it).
    public var value: Int { count.load(ordering: .relaxed) }
}
