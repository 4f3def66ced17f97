#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A value shared by threads, reached only under its lock: `Mutex`'s shape over a pthread mutex, which
/// ThreadSanitizer sees (it does not see `Mutex`'s lock on Linux). Public for FlowSite's ``FlowSite/Locked``,
/// the one lock of the engine and of apps; nothing else in this module is.
public final class Locked<Value>: @unchecked Sendable {
    // Sendable is sound: the value is touched only in `withLock` and crosses the lock only as `sending`, as with
    // `Mutex`. Behind pointers: the mutex must not move, and the value needs no dynamic exclusivity checks.
    @usableFromInline let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    @usableFromInline let value = UnsafeMutablePointer<Value>.allocate(capacity: 1)

    /// A lock around `initialValue`.
    public init(_ initialValue: consuming sending Value) {
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        value.initialize(to: initialValue)
    }

    deinit {
        value.deinitialize(count: 1)
        value.deallocate()
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    // Inlinable and always inlined, as `Mutex.withLock` is: callers in other modules would otherwise make an
    // unspecialised call.
    /// Runs `body` with the value while holding the lock, and returns what it returns.
    @inlinable @inline(__always)
    public func withLock<Result, Failure: Error>(
        _ body: (inout sending Value) throws(Failure) -> sending Result
    ) throws(Failure) -> sending Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value.pointee)
    }
}
