import FlowSiteUtilities
import Foundation

/// A private file written front to back, then sealed: each block's checksum is taken as the block is written,
/// so nothing is read back, and ``seal(trailer:as:)`` writes the trailer those checksums make and renames the
/// file into place. The journal is one (see ``BuildJournal``); its reader refuses a file whose bytes changed.
struct SealedFile {
    let path: String
    private var descriptor: Int32
    /// The bytes appended so far: where the next one goes.
    private(set) var count = 0
    private(set) var failed = false
    /// The block being filled; written once full.
    private var block: [UInt8] = []
    private var checksums: [StableHash] = []

    /// A new file at `path` (one there is replaced); `nil` when it can't be made.
    init?(creating path: String) {
        descriptor = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return nil }
        self.path = path
        block.reserveCapacity(JournalFile.checksumBlock)
    }

    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        count += bytes.count
        var rest = bytes[...]
        while !rest.isEmpty {
            let room = JournalFile.checksumBlock - block.count
            block.append(contentsOf: rest.prefix(room))
            rest = rest.dropFirst(room)
            if block.count == JournalFile.checksumBlock { writeBlock() }
        }
    }

    /// Appends `out`'s bytes and empties it, keeping its capacity.
    mutating func append(_ out: inout ByteWriter) {
        out.bytes.withUnsafeBytes { append($0) }
        out.bytes.removeAll(keepingCapacity: true)
    }

    private mutating func writeBlock() {
        guard !block.isEmpty else { return }
        checksums.append(block.withUnsafeBytes { JournalFile.checksum($0) })
        if !failed && !block.withUnsafeBytes({ writeAll(descriptor, $0) }) { failed = true }
        block.removeAll(keepingCapacity: true)
    }

    /// Writes the last block, then the trailer `trailer` makes of every block's checksum, and renames the file to
    /// `destination`. On failure the file is removed; `false`.
    mutating func seal(trailer: ([StableHash]) -> [UInt8], as destination: String) -> Bool {
        writeBlock()
        let sealed =
            !failed && trailer(checksums).withUnsafeBytes { writeAll(descriptor, $0) }
            && rename(path, destination) == 0
        close(descriptor)
        descriptor = -1
        if !sealed { unlink(path) }
        return sealed
    }

    /// Closes and removes the file.
    mutating func discard() {
        if descriptor >= 0 { close(descriptor) }
        descriptor = -1
        failed = true
        unlink(path)
    }
}
