import FlowSiteUtilities
import Foundation

/// `.flowsite-manifest`: each file's fingerprint and identity (size, inode, modification time), and the inputs'
/// fingerprint. The next build links an intact file with the same fingerprint instead of writing it.
struct SiteManifest: Sendable {
    struct Entry: Sendable, Equatable {
        var fingerprint: StableHash
        var size: Int
        var inode: UInt64
        var modified: timespec

        static func == (lhs: Entry, rhs: Entry) -> Bool {
            lhs.fingerprint == rhs.fingerprint && lhs.size == rhs.size && lhs.inode == rhs.inode
                && lhs.modified.tv_sec == rhs.modified.tv_sec && lhs.modified.tv_nsec == rhs.modified.tv_nsec
        }

        func matches(_ status: stat) -> Bool {
            // S_IFMT and S_IFREG by value: the overlay's are calls, once per file of the site.
            status.st_mode & 0o170000 == 0o100000 && Int(status.st_size) == size && UInt64(status.st_ino) == inode
                && FileIdentity.modificationTime(of: status).tv_sec == modified.tv_sec
                && FileIdentity.modificationTime(of: status).tv_nsec == modified.tv_nsec
        }
    }

    static let header = "Made by FlowSite. This folder is replaced whole on every build.\n"

    var inputs: String?
    var pages: Int
    var files: [String: Entry]
    /// Flow lint's active findings and summary, for a no-change rebuild to say again.
    var lint: (findings: Int, summary: String)?

    func text() -> String { String(decoding: bytes(), as: UTF8.self) }

    /// Made without a String per line: on a large site those would cost more than the file.
    func bytes() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(64 + files.count * 110)
        let places = Array(files.indices)
        Self.appendLines(
            inputs: inputs, pages: pages, lint: lint, count: places.count, path: { files[places[$0]].key },
            entry: { files[places[$0]].value }
        ) {
            out.append(contentsOf: $0)
        }
        return out
    }

    /// Writes the manifest a megabyte at a time: neither the whole file nor a sorted copy of the entries is held
    /// at the build's end, where its memory peaks.
    static func write(
        inputs: String?, pages: Int, lint: (findings: Int, summary: String)?, count: Int, path: (Int) -> String,
        entry: (Int) -> Entry,
        to descriptor: Int32
    ) throws {
        let chunk = 1 << 20
        var out: [UInt8] = []
        out.reserveCapacity(chunk + 4096)
        try appendLines(inputs: inputs, pages: pages, lint: lint, count: count, path: path, entry: entry) { line in
            out.append(contentsOf: line)
            if out.count >= chunk {
                try writeAll(out, to: descriptor)
                out.removeAll(keepingCapacity: true)
            }
        }
        try writeAll(out, to: descriptor)
    }

    /// Hands the manifest's text to `emit` a line or less at a time, files in path order.
    private static func appendLines(
        inputs: String?, pages: Int, lint: (findings: Int, summary: String)?, count: Int, path: (Int) -> String,
        entry: (Int) -> Entry,
        _ emit: (UnsafeBufferPointer<UInt8>) throws -> Void
    ) rethrows {
        try headerBytes(inputs: inputs, pages: pages, lint: lint).withUnsafeBufferPointer(emit)
        // Positions sorted by path bytes, the paths in one buffer compared with memcmp (Strings cost far more).
        // At the build's memory peak: each buffer of its exact size.
        var paths: [UInt8] = []
        paths.reserveCapacity((0..<count).reduce(0) { $0 + path($1).utf8.count })
        var spans: [(start: Int32, count: Int32)] = []
        spans.reserveCapacity(count)
        for position in 0..<count {
            let start = paths.count
            paths.append(contentsOf: path(position).utf8)
            spans.append((Int32(start), Int32(paths.count - start)))
        }
        var order = Array(0..<Int32(count))
        paths.withUnsafeBufferPointer { bytes in
            guard let base = bytes.baseAddress else { return }
            order.sort { a, b in
                let (x, y) = (spans[Int(a)], spans[Int(b)])
                let compared = memcmp(base + Int(x.start), base + Int(y.start), Int(min(x.count, y.count)))
                return compared != 0 ? compared < 0 : x.count < y.count
            }
        }
        paths = []
        spans = []
        var line: [UInt8] = []
        line.reserveCapacity(256)
        for position in order {
            line.removeAll(keepingCapacity: true)
            appendLine(path: path(Int(position)).utf8, entry: entry(Int(position)), to: &line)
            try line.withUnsafeBufferPointer(emit)
        }
    }

    static func appendDecimal(_ number: Int, to out: inout [UInt8]) {
        if number < 0 { out.append(UInt8(ascii: "-")) }
        var magnitude = number.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0) // room for 20 digits
        withUnsafeMutableBytes(of: &digits) { buffer in
            var start = buffer.count
            repeat {
                start -= 1
                buffer[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            out.append(contentsOf: buffer[start...])
        }
    }

    /// `nil` for an old marker without a manifest or anything malformed: the build renders everything.
    init?(text: String) {
        self.init(bytes: Array(text.utf8))
    }

    /// Without a String per field: a no-change rebuild reads a line for every file of the site.
    init?(bytes: [UInt8]) {
        guard let header = bytes.withUnsafeBufferPointer({ Self.header(of: $0) }) else { return nil }
        var files: [String: Entry] = [:]
        files.reserveCapacity(bytes.count / 96)
        let valid = Self.forEachLine(of: bytes, in: header.filesStart..<bytes.count) { line, _ in
            guard line.starts(with: "f ".utf8) else { return true }
            guard let (entry, path) = Self.file(line) else { return false }
            files[String(decoding: path, as: UTF8.self)] = entry
            return true
        }
        guard valid else { return nil }
        let inputs = header.inputs.map { String(decoding: bytes[$0], as: UTF8.self) }
        self.inputs = inputs == "-" ? nil : inputs
        self.pages = header.pages
        self.files = files
        self.lint = header.lint
    }

    /// ``linkableFiles(_:besides:)`` with the spare's manifest bytes: lines in both are left out, found by a hash
    /// of the whole line. A mere hash collision can only cost a link, never a wrong file.
    static func linkableFiles(_ bytes: [UInt8], besidesLinesOf base: [UInt8]) -> LinkableFiles? {
        func key(_ line: UnsafeBufferPointer<UInt8>) -> UInt64 { StableHash(of: line).low }
        var shared: Set<UInt64> = []
        _ = forEachFileLine(of: base) { line in
            shared.insert(key(line))
            return true
        }
        return FileTable(manifest: bytes) { shared.contains(key($0)) }
    }

    /// The manifest's files without those `base` lists as they are; `nil` when malformed.
    static func linkableFiles(_ bytes: [UInt8], besides base: FileTable?) -> LinkableFiles? {
        FileTable(manifest: bytes) { line in
            guard let base, let (entry, path) = file(line) else { return false }
            return base[key: FileTable.key(UnsafeRawBufferPointer(path))] == entry
        }
    }

    /// Calls `body` with each non-empty line and its start, over the lines that begin in `range`, until it
    /// returns `false`; whether every line was taken.
    static func forEachLine(
        of bytes: [UInt8], in range: Range<Int>? = nil, _ body: (UnsafeBufferPointer<UInt8>, Int) -> Bool
    ) -> Bool {
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return true }
            var start = range?.lowerBound ?? 0
            let limit = range?.upperBound ?? buffer.count
            while start < limit {
                var end = buffer.count
                if let found = memchr(base + start, Int32(UInt8(ascii: "\n")), buffer.count - start) {
                    end = UnsafePointer(found.assumingMemoryBound(to: UInt8.self)) - base
                }
                defer { start = end + 1 }
                let line = UnsafeBufferPointer(rebasing: buffer[start..<end])
                if !line.isEmpty, !body(line, start) { return false }
            }
            return true
        }
    }

    /// Reads a `lint <count> <summary>` line.
    static func lint(_ line: UnsafeBufferPointer<UInt8>) -> (findings: Int, summary: String)? {
        let text = String(decoding: line.dropFirst(5), as: UTF8.self)
        guard let space = text.firstIndex(of: " "), let findings = Int(text[..<space]) else { return nil }
        return (findings, String(text[text.index(after: space)...]))
    }

    /// Reads `f <fingerprint> <size> <inode> <seconds> <nanoseconds> <path>`; `nil` when malformed.
    static func file(_ line: UnsafeBufferPointer<UInt8>) -> (Entry, UnsafeBufferPointer<UInt8>)? {
        guard case (var entry, let path)? = entryAndPath(line) else { return nil }
        var reader = FieldReader(line: line, at: 2)
        guard let a = reader.hex(), let b = reader.hex() else { return nil }
        entry.fingerprint = StableHash(a: a, b: b)
        return (entry, path)
    }

    /// A file line's size, inode, time and path, the fingerprint left zero and unread (the checks of many lines
    /// compare none). A damaged fingerprint is refused later, when a build reads it.
    static func entryAndPath(_ line: UnsafeBufferPointer<UInt8>) -> (Entry, UnsafeBufferPointer<UInt8>)? {
        guard line.count > 35, line[0] == UInt8(ascii: "f"), line[1] == UInt8(ascii: " "), line[34] == UInt8(ascii: " ")
        else { return nil }
        var reader = FieldReader(line: line, at: 35)
        guard let size = reader.integer(), let inode = reader.integer(), let seconds = reader.integer(),
            let nanoseconds = reader.integer(), reader.position < line.count
        else { return nil }
        let entry = Entry(
            fingerprint: StableHash(a: 0, b: 0), size: size, inode: UInt64(bitPattern: Int64(inode)),
            modified: timespec(tv_sec: seconds, tv_nsec: nanoseconds)
        )
        return (entry, UnsafeBufferPointer(rebasing: line[reader.position...]))
    }

    struct FieldReader {
        let line: UnsafeBufferPointer<UInt8>
        var position: Int

        init(line: UnsafeBufferPointer<UInt8>, at position: Int) {
            self.line = line
            self.position = position
        }

        /// Sixteen lowercase hex digits.
        mutating func hex() -> UInt64? {
            guard position + 16 <= line.count else { return nil }
            var value: UInt64 = 0
            var bad: UInt8 = 0
            for index in position..<position + 16 {
                let byte = line[index]
                let decimal = byte &- UInt8(ascii: "0")
                let letter = byte &- UInt8(ascii: "a")
                // A digit is under 10, a letter a-f under 6; anything else sets `bad`.
                let isDecimal = decimal < 10
                let digit = isDecimal ? decimal : letter &+ 10
                bad |= isDecimal || letter < 6 ? 0 : 1
                value = value << 4 | UInt64(digit)
            }
            guard bad == 0 else { return nil }
            position += 16
            return value
        }

        mutating func space() -> Bool {
            guard position < line.count, line[position] == UInt8(ascii: " ") else { return false }
            position += 1
            return true
        }

        /// A decimal integer followed by a space (or by the end of the line, when `last`).
        mutating func integer(last: Bool = false) -> Int? {
            var negative = false
            if position < line.count, line[position] == UInt8(ascii: "-") {
                negative = true
                position += 1
            }
            // Up to 18 digits cannot overflow: read them without checks.
            var fast = 0
            var scan = position
            while scan < line.count, scan - position < 18 {
                let digit = line[scan] &- UInt8(ascii: "0")
                guard digit < 10 else { break }
                fast = fast &* 10 &+ Int(digit)
                scan += 1
            }
            if scan > position, scan == line.count || line[scan] &- UInt8(ascii: "0") >= 10 {
                position = scan
                guard last ? position == line.count : space() else { return nil }
                return negative ? -fast : fast
            }
            // More: accumulated negative, whose range holds Int.min; out of range refuses the line, never traps.
            var value = 0
            var digits = 0
            while position < line.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(line[position]) {
                let (times10, overflow) = value.multipliedReportingOverflow(by: 10)
                let (next, overflow2) = times10.subtractingReportingOverflow(Int(line[position] - UInt8(ascii: "0")))
                guard !overflow, !overflow2 else { return nil }
                value = next
                position += 1
                digits += 1
            }
            guard digits > 0, last ? position == line.count : space() else { return nil }
            if negative { return value }
            return value == .min ? nil : -value
        }
    }

    init(inputs: String?, pages: Int, files: [String: Entry]) {
        self.inputs = inputs
        self.pages = pages
        self.files = files
    }

    /// Not following a symbolic link.
    static func readBytes(from folder: Int32) -> [UInt8]? {
        let file = openat(folder, SiteLayout.manifest, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard file >= 0 else { return nil }
        defer { close(file) }
        return readBytes(fromFile: file)
    }

    static func readBytes(fromFile file: Int32) -> [UInt8]? {
        // Straight into an array of the file's size; a file that grows meanwhile is read to its end.
        var status = stat()
        let expected = fstat(file, &status) == 0 ? max(0, Int(status.st_size)) : 0
        var data = [UInt8](repeating: 0, count: expected + 1)
        var count = 0
        while true {
            if count == data.count { data.append(contentsOf: repeatElement(0, count: max(1 << 16, data.count))) }
            let got = data.withUnsafeMutableBytes { read(file, $0.baseAddress! + count, $0.count - count) }
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { break }
            count += got
        }
        data.removeLast(data.count - count)
        return data
    }

    // MARK: - File lines read in place

    /// What follows a file line's sixth space.
    static func pathOfFileLine(_ line: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8>? {
        guard let base = line.baseAddress else { return nil }
        var position = 0
        for _ in 0..<6 {
            guard position < line.count,
                let found = memchr(base + position, Int32(UInt8(ascii: " ")), line.count - position)
            else { return nil }
            position = UnsafePointer(found.assumingMemoryBound(to: UInt8.self)) - base + 1
        }
        return position < line.count ? UnsafeBufferPointer(rebasing: line[position...]) : nil
    }

    /// Negative when `a` comes first by bytes, as manifests list paths; zero when equal.
    static func order(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Int {
        let shared = min(a.count, b.count)
        let compared = shared == 0 ? 0 : memcmp(a.baseAddress!, b.baseAddress!, shared)
        return compared != 0 ? Int(compared) : a.count - b.count
    }

    /// The decimal number at `position`, up to a space or the end of the line.
    static func decimal(_ line: UnsafeBufferPointer<UInt8>, at position: Int) -> Int? {
        var value = 0
        var index = position
        while index < line.count, line[index] != UInt8(ascii: " ") {
            let digit = Int(line[index]) - Int(UInt8(ascii: "0"))
            guard (0...9).contains(digit), value < Int.max / 10 - 9 else { return nil }
            value = value * 10 + digit
            index += 1
        }
        return index > position ? value : nil
    }

    /// The lines before the first file line; `nil` without a `manifest 1` line.
    static func header(
        of bytes: UnsafeBufferPointer<UInt8>
    ) -> (filesStart: Int, inputs: Range<Int>?, pages: Int, lint: (findings: Int, summary: String)?)? {
        var start = 0
        var (sawManifest, inputs, pages) = (false, Range<Int>?.none, 0)
        var lint: (findings: Int, summary: String)?
        while start < bytes.count,
            !(bytes[start] == UInt8(ascii: "f") && start + 1 < bytes.count && bytes[start + 1] == UInt8(ascii: " "))
        {
            var end = start
            while end < bytes.count, bytes[end] != UInt8(ascii: "\n") { end += 1 }
            let line = UnsafeBufferPointer(rebasing: bytes[start..<end])
            if line.elementsEqual("manifest 1".utf8) {
                sawManifest = true
            } else if line.starts(with: "inputs ".utf8) {
                inputs = (start + 7)..<end
            } else if line.starts(with: "pages ".utf8) {
                var reader = FieldReader(line: line, at: 6)
                pages = reader.integer(last: true) ?? 0
            } else if line.starts(with: "lint ".utf8) {
                lint = Self.lint(line)
            }
            start = end + 1
        }
        return sawManifest ? (min(start, bytes.count), inputs, pages, lint) : nil
    }
}

// MARK: - Writing

extension SiteManifest {
    static func headerBytes(inputs: String?, pages: Int, lint: (findings: Int, summary: String)?) -> [UInt8] {
        var header = "manifest 1\ninputs \(inputs ?? "-")\npages \(pages)\n"
        if let lint, !lint.summary.contains("\n") { header += "lint \(lint.findings) \(lint.summary)\n" }
        return Array(header.utf8)
    }

    /// `f <fingerprint> <size> <inode> <seconds> <nanoseconds> <path>` and a newline.
    static func appendLine(path: some Collection<UInt8>, entry: Entry, to line: inout [UInt8]) {
        line.append(contentsOf: "f ".utf8)
        entry.fingerprint.appendHex(to: &line)
        // One number at a time: an array literal here would be an allocation per file.
        line.append(UInt8(ascii: " "))
        appendDecimal(entry.size, to: &line)
        line.append(UInt8(ascii: " "))
        appendDecimal(Int(bitPattern: UInt(entry.inode)), to: &line)
        line.append(UInt8(ascii: " "))
        appendDecimal(entry.modified.tv_sec, to: &line)
        line.append(UInt8(ascii: " "))
        appendDecimal(entry.modified.tv_nsec, to: &line)
        line.append(UInt8(ascii: " "))
        line.append(contentsOf: path)
        line.append(UInt8(ascii: "\n"))
    }

    /// Calls `body` with each file line until it returns `false`. `nil` when there is no `manifest 1` line first
    /// or `body` refused a line; otherwise where the file lines begin, and the lint line.
    static func forEachFileLine(
        of bytes: [UInt8], _ body: (UnsafeBufferPointer<UInt8>) -> Bool
    ) -> (filesStart: Int, lint: (findings: Int, summary: String)?)? {
        guard let header = bytes.withUnsafeBufferPointer({ header(of: $0) }) else { return nil }
        let valid = forEachLine(of: bytes, in: header.filesStart..<bytes.count) { line, _ in
            guard line.count > 2, line[0] == UInt8(ascii: "f"), line[1] == UInt8(ascii: " ") else { return true }
            return body(line)
        }
        return valid ? (header.filesStart, header.lint) : nil
    }
}
