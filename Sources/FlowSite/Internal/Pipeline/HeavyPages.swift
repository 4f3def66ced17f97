import FlowSiteUtilities
import Foundation

/// Renders very large pages one at a time, so memory is bounded by one of them, not one per task.
enum HeavyPages {
    /// Links from which a page counts as heavy before its Markdown is made.
    static let links = 4096
    /// Markdown bytes from which a page counts as heavy.
    static let bytes = 1 << 20

    private static let gate = Locked(())

    /// Runs `work`, alone among heavy pages when `heavy`, then gives the freed memory back to the system.
    static func one<T>(if heavy: Bool, _ work: () throws -> T) throws -> T {
        guard heavy else { return try work() }
        return try gate.withLock { _ in
            defer { releaseFreeMemory() }
            return try work()
        }
    }

    /// Pages between two returns of free memory to the system.
    static let trimInterval = 16_384

    /// jemalloc's when the program links it (the Star Wars app's does), glibc's otherwise.
    static func releaseFreeMemory() {
        #if canImport(Glibc)
        typealias Control =
            @convention(c) (
                UnsafePointer<CChar>, UnsafeMutableRawPointer?, UnsafeMutablePointer<Int>?, UnsafeMutableRawPointer?,
                Int
            ) -> Int32
        typealias Trim = @convention(c) (Int) -> Int32
        if let symbol = dlsym(nil, "mallctl") {
            // 4096 is MALLCTL_ARENAS_ALL: every arena.
            _ = unsafeBitCast(symbol, to: Control.self)("arena.4096.purge", nil, nil, nil, 0)
        } else if let symbol = dlsym(nil, "malloc_trim") {
            _ = unsafeBitCast(symbol, to: Trim.self)(0)
        }
        #endif
    }
}
