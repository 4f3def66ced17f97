#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A value that threads share, reached only under its lock: `Synchronization.Mutex`'s shape
/// (`withLock` lends the body the value `inout`) over a pthread mutex, which ThreadSanitizer
/// sees. It does not see `Mutex`'s lock on Linux, and would report every two accesses under it.
///
/// ```swift
/// let seen = Locked<Set<String>>([])
/// let isNew = seen.withLock { $0.insert(name).inserted }
/// ```
///
/// A copy of FlowSite's own (`Sources/FlowSiteUtilities/Locked.swift`): SWAPI depends on FlowSite,
/// but that one has `package` access, which does not reach another package, so this one is public
/// for SWAPI and the app's modules above it.
public final class Locked<Value>: @unchecked Sendable {
    // Sendable is sound: the value is read and written only in `withLock`, between locking and
    // unlocking `mutex`, and it crosses the lock only as `sending` (in `init`, to and from the
    // body), as with `Mutex`, so no caller keeps a reference into it that another thread reaches.
    // Both live behind pointers: the mutex must not move, and the value then needs no dynamic
    // exclusivity check on each access, as a class's stored `var` would.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let value = UnsafeMutablePointer<Value>.allocate(capacity: 1)

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

    // Always inlined, as `Mutex.withLock` is: a caller in generic code would otherwise make an
    // unspecialised generic call each time.
    /// Runs `body` with the value while holding the lock, and returns what it returns.
    @inline(__always)
    public func withLock<Result, Failure: Error>(
        _ body: (inout sending Value) throws(Failure) -> sending Result
    ) throws(Failure) -> sending Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value.pointee)
    }
}
