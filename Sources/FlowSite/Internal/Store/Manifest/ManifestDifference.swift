import Foundation

/// What an edit must do to the spare to make it the live site again, from the two manifests alone:
/// the live files the spare lacks, and the spare's paths the live site no longer has. No String or dictionary
/// entry per file: an edit changes a handful of files, and per-file tables would dominate its time and memory.
struct ManifestDifference: Sendable {
    /// The live site's manifest.
    let live: [UInt8]
    let liveFilesStart: Int
    /// Offsets in ``live`` of the lines the spare's manifest lacks byte for byte; each file is linked from the
    /// live site. Offsets, not paths: after a full build it is every file, and the difference may not be used.
    private let missingLines: [Int]
    /// The spare's paths the live site doesn't have.
    let extra: [String]
    /// The live site's files and bytes, the marker excluded.
    let fileCount: Int
    let byteCount: Int
    let lint: (findings: Int, summary: String)?

    /// `nil` when either manifest is malformed or out of path order. Both are sorted by path bytes, so one
    /// walk in step finds the difference: a shared path is missing from the spare when its lines differ in any byte.
    init?(live: [UInt8], spare: [UInt8]?) {
        var spareLines: [(start: Int, end: Int)] = []
        let spareBytes = spare ?? []
        let spareBase = spareBytes.withUnsafeBufferPointer { $0.baseAddress }
        if spare != nil {
            spareLines.reserveCapacity(spareBytes.count / 64)
            guard let spareBase,
                SiteManifest.forEachFileLine(
                    of: spareBytes,
                    { line in
                        let start = line.baseAddress! - spareBase
                        spareLines.append((start, start + line.count))
                        return true
                    }) != nil
            else { return nil }
        }
        var missingLines: [Int] = []
        var extra: [String] = []
        var fileCount = 0
        var byteCount = 0
        var next = 0 // the first spare line not yet passed
        var previous: UnsafeBufferPointer<UInt8>?
        let marker = Array(" \(SiteLayout.marker)".utf8)
        let liveBase = live.withUnsafeBufferPointer { $0.baseAddress }
        let walked: (filesStart: Int, lint: (findings: Int, summary: String)?)?? = spareBytes.withUnsafeBufferPointer {
            spareBuffer in
            func line(_ index: Int) -> UnsafeBufferPointer<UInt8> {
                UnsafeBufferPointer(rebasing: spareBuffer[spareLines[index].start..<spareLines[index].end])
            }
            // The path of the spare's line `index`, checked to come after the one before it.
            func sparePath(_ index: Int) -> UnsafeBufferPointer<UInt8>? {
                guard let path = Self.path(line(index)) else { return nil }
                guard index == 0 || Self.path(line(index - 1)).map({ Self.order($0, path) < 0 }) == true else {
                    return nil
                }
                return path
            }
            var malformed = false
            guard let liveBase else { return nil }
            let header = SiteManifest.forEachFileLine(
                of: live,
                { line in
                    // The size is the field after the fingerprint: `f <32 hex digits> <size> …`.
                    guard line.count > 36, let size = Self.decimal(line, at: 35), let path = Self.path(line),
                        previous.map({ Self.order($0, path) < 0 }) ?? true
                    else { return false }
                    previous = path
                    var same = false
                    while next < spareLines.count {
                        guard let other = sparePath(next) else {
                            malformed = true
                            return false
                        }
                        let order = Self.order(other, path)
                        if order > 0 { break }
                        next += 1
                        if order < 0 {
                            extra.append(String(decoding: other, as: UTF8.self))
                            continue
                        }
                        let spareLine = spareLines[next - 1]
                        same =
                            spareLine.end - spareLine.start == line.count
                            && memcmp(spareBuffer.baseAddress! + spareLine.start, line.baseAddress!, line.count) == 0
                        break
                    }
                    if !same { missingLines.append(line.baseAddress! - liveBase) }
                    if !Self.isMarker(line, marker) {
                        fileCount += 1
                        byteCount += size
                    }
                    return true
                })
            guard !malformed, let header else { return nil }
            while next < spareLines.count {
                guard let other = sparePath(next) else { return nil }
                extra.append(String(decoding: other, as: UTF8.self))
                next += 1
            }
            return header
        }
        guard let walked, let header = walked else { return nil }
        self.live = live
        self.liveFilesStart = header.filesStart
        self.missingLines = missingLines
        self.extra = extra
        self.fileCount = fileCount
        self.byteCount = byteCount
        self.lint = header.lint
    }

    /// What follows a file line's sixth space.
    private static func path(_ line: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8>? {
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
    private static func order(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Int {
        let shared = min(a.count, b.count)
        let compared = shared == 0 ? 0 : memcmp(a.baseAddress!, b.baseAddress!, shared)
        return compared != 0 ? Int(compared) : a.count - b.count
    }

    /// Whether `line`'s whole path is the marker's name (`marker` is a space and the name).
    private static func isMarker(_ line: UnsafeBufferPointer<UInt8>, _ marker: [UInt8]) -> Bool {
        guard line.count > marker.count,
            memcmp(line.baseAddress! + line.count - marker.count, marker, marker.count) == 0
        else { return false }
        return SiteManifest.file(line).map { $0.1.count == marker.count - 1 } ?? false
    }

    private static func decimal(_ line: UnsafeBufferPointer<UInt8>, at position: Int) -> Int? {
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

    /// The live files whose line the spare's manifest lacks.
    var missing: [(path: String, entry: SiteManifest.Entry)] {
        live.withUnsafeBufferPointer { bytes in
            missingLines.compactMap { start in
                let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
                return SiteManifest.file(UnsafeBufferPointer(rebasing: bytes[start..<end])).map {
                    (String(decoding: $0.1, as: UTF8.self), $0.0)
                }
            }
        }
    }

    /// By binary search: every manifest's lines are sorted by path bytes.
    func liveEntry(_ path: String) -> SiteManifest.Entry? {
        lineOf(path).map(\.entry)
    }

    private func lineOf(_ path: String) -> (range: Range<Int>, entry: SiteManifest.Entry)? {
        let wanted = Array(path.utf8)
        return live.withUnsafeBufferPointer { bytes in Self.find(wanted, in: bytes, from: liveFilesStart) }
    }

    private static func find(
        _ wanted: [UInt8], in bytes: UnsafeBufferPointer<UInt8>, from filesStart: Int
    ) -> (range: Range<Int>, entry: SiteManifest.Entry)? {
        guard let base = bytes.baseAddress else { return nil }
        let newline = Int32(UInt8(ascii: "\n"))
        var low = filesStart
        var high = bytes.count
        while low < high {
            let middle = (low + high) / 2
            // The line holding `middle`: `low` is always a line's start.
            var start = middle
            while start > low, bytes[start - 1] != UInt8(ascii: "\n") { start -= 1 }
            var end = bytes.count
            if let found = memchr(base + start, newline, bytes.count - start) {
                end = UnsafePointer(found.assumingMemoryBound(to: UInt8.self)) - base
            }
            guard let (entry, name) = SiteManifest.file(UnsafeBufferPointer(rebasing: bytes[start..<end])) else {
                return nil
            }
            let order = wanted.withUnsafeBufferPointer { Self.order(name, $0) }
            if order == 0 { return (start..<end, entry) }
            if order < 0 { low = end + 1 } else { high = start }
        }
        return nil
    }

    /// The live manifest with a new header and the lines of `changed` written over; `nil` when a path of `changed`
    /// is not in it.
    func patchedManifest(inputs: String?, pages: Int, changed: [String: SiteManifest.Entry]) -> [UInt8]? {
        var lines: [(range: Range<Int>, line: [UInt8])] = []
        for (path, entry) in changed {
            guard let (range, _) = lineOf(path) else { return nil }
            var line: [UInt8] = []
            SiteManifest.appendLine(path: Array(path.utf8), entry: entry, to: &line)
            line.removeLast() // the newline stays the old line's
            lines.append((range, line))
        }
        lines.sort { $0.range.lowerBound < $1.range.lowerBound }
        var out = SiteManifest.headerBytes(inputs: inputs, pages: pages, lint: lint)
        out.reserveCapacity(out.count + live.count - liveFilesStart + 256)
        var from = liveFilesStart
        for (range, line) in lines {
            out.append(contentsOf: live[from..<range.lowerBound])
            out.append(contentsOf: line)
            from = range.upperBound
        }
        out.append(contentsOf: live[from...])
        return out
    }
}

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
        var sawManifest = false
        var lint: (findings: Int, summary: String)?
        var filesStart: Int?
        let valid = forEachLine(of: bytes) { line, start in
            if line.count > 2, line[0] == UInt8(ascii: "f"), line[1] == UInt8(ascii: " ") {
                guard sawManifest else { return false }
                if filesStart == nil { filesStart = start }
                return body(line)
            }
            if line.elementsEqual("manifest 1".utf8) {
                sawManifest = true
            } else if filesStart == nil, line.starts(with: "lint ".utf8) {
                lint = Self.lint(line)
            }
            return true
        }
        guard valid, sawManifest else { return nil }
        return (filesStart ?? bytes.count, lint)
    }
}

/// Looks files up from their section's open folder (`characters/…` from `characters`): one component less for
/// the kernel to walk. Manifest lines are in path order, so a section's files come together.
struct SectionLookup: ~Copyable {
    let site: Int32
    private var section: [UInt8] = []
    private var folder: Int32 = -1
    private var path = [CChar](repeating: 0, count: 256)

    init(site: Int32) { self.site = site }

    deinit { if folder >= 0 { close(folder) } }

    mutating func holds(_ name: UnsafeBufferPointer<UInt8>, as entry: SiteManifest.Entry) -> Bool {
        var status = stat()
        return lookUp(name, into: &status) && entry.matches(status)
    }

    /// `stat` of the file at `name`, not following a link; whether there is one. Raw memory calls: this runs
    /// once per file of the site.
    mutating func lookUp(_ name: UnsafeBufferPointer<UInt8>, into status: inout stat) -> Bool {
        guard let base = name.baseAddress else { return false }
        var from = site
        var rest = name
        if let found = memchr(base, Int32(UInt8(ascii: "/")), name.count) {
            let slash = UnsafeRawPointer(found) - UnsafeRawPointer(base)
            let sameSection =
                folder >= 0 && section.count == slash
                && section.withUnsafeBytes { memcmp($0.baseAddress!, base, slash) == 0 }
            if !sameSection {
                if folder >= 0 { close(folder) }
                section = Array(UnsafeBufferPointer(rebasing: name[..<slash]))
                section.append(0)
                // Not through a link: a section that is one is not the site as written.
                folder = section.withUnsafeBufferPointer { name in
                    name.withMemoryRebound(to: CChar.self) {
                        openat(site, $0.baseAddress!, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
                    }
                }
                section.removeLast()
            }
            from = folder
            rest = UnsafeBufferPointer(rebasing: name[(slash + 1)...])
        }
        guard from >= 0 else { return false }
        if path.count <= rest.count { path = [CChar](repeating: 0, count: rest.count + 1) }
        return path.withUnsafeMutableBufferPointer { path in
            if let source = rest.baseAddress { memcpy(path.baseAddress!, source, rest.count) }
            path[rest.count] = 0
            return fstatat(from, path.baseAddress!, &status, AT_SYMLINK_NOFOLLOW) == 0
        }
    }
}
