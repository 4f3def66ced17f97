import FlowSiteUtilities

/// A value that threads share, reached only under its lock: the shape of `Synchronization.Mutex`
/// (`withLock` lends the body the value `inout`), over a pthread mutex.
///
/// The walk makes many pages at once, so a view model or service that keeps state between pages (a cache of
/// formatted dates, a count) keeps it in one of these:
///
/// ```swift
/// let seen = Locked<Set<String>>([])
/// let isNew = seen.withLock { $0.insert(name).inserted }
/// ```
///
/// It is the lock FlowSite itself uses. Unlike `Mutex`, ThreadSanitizer sees it on Linux, so a test run with
/// `--sanitize=thread` reports real races only, and it needs no newer platform than the package declares.
public typealias Locked<Value> = FlowSiteUtilities.Locked<Value>
