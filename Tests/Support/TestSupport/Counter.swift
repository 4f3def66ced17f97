import Foundation

/// A count that the closures of a property check (run on any thread) add to, read once the
/// check is over.
public final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    public init() {}

    public func add() { lock.withLock { count += 1 } }

    public var value: Int { lock.withLock { count } }
}
