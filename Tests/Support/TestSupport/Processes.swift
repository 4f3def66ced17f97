import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Process ids for tests of what killed builds leave behind.
public enum Processes {
    /// The id of a process that has ended and been reaped, so no process has it (until the
    /// system reuses it); `nil` when that can't be made sure of.
    public static func deadIdentifier() -> Int32? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/true")
        guard (try? process.run()) != nil else { return nil }
        process.waitUntilExit()
        let pid = process.processIdentifier
        return kill(pid, 0) == -1 && errno == ESRCH ? pid : nil
    }
}
