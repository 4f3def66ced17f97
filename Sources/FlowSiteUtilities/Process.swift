#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether no process has the id `pid`: a folder or file named for a process that was killed is left behind.
package func processHasEnded(_ pid: Int32) -> Bool { kill(pid, 0) == -1 && errno == ESRCH }
