import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes every byte of `bytes` to `descriptor`, at `offset` when one is given (without moving the file's
/// position) and else where the file's position is, retrying a short write or an interrupted one. `false` on any
/// other failure, with `errno` set: the one write loop of the engine, for the site's files and the journal alike.
package func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int? = nil) -> Bool {
    var done = 0
    while done < bytes.count {
        let count =
            offset.map { pwrite(descriptor, bytes.baseAddress! + done, bytes.count - done, off_t($0 + done)) }
            ?? write(descriptor, bytes.baseAddress! + done, bytes.count - done)
        if count < 0 && errno == EINTR { continue }
        guard count > 0 else { return false }
        done += count
    }
    return true
}

/// ``writeAll(_:_:at:)``, throwing the system's error.
package func writeAll(_ data: [UInt8], to descriptor: Int32) throws {
    guard data.withUnsafeBytes({ writeAll(descriptor, $0) }) else {
        throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
    }
}
