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
                guard let path = SiteManifest.pathOfFileLine(line(index)) else { return nil }
                guard
                    index == 0
                        || SiteManifest.pathOfFileLine(line(index - 1)).map({ SiteManifest.order($0, path) < 0 })
                            == true
                else {
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
                    guard line.count > 36, let size = SiteManifest.decimal(line, at: 35),
                        let path = SiteManifest.pathOfFileLine(line),
                        previous.map({ SiteManifest.order($0, path) < 0 }) ?? true
                    else { return false }
                    previous = path
                    var same = false
                    while next < spareLines.count {
                        guard let other = sparePath(next) else {
                            malformed = true
                            return false
                        }
                        let order = SiteManifest.order(other, path)
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

    /// Whether `line`'s whole path is the marker's name (`marker` is a space and the name).
    private static func isMarker(_ line: UnsafeBufferPointer<UInt8>, _ marker: [UInt8]) -> Bool {
        guard line.count > marker.count,
            memcmp(line.baseAddress! + line.count - marker.count, marker, marker.count) == 0
        else { return false }
        return SiteManifest.file(line).map { $0.1.count == marker.count - 1 } ?? false
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
            let order = wanted.withUnsafeBufferPointer { SiteManifest.order(name, $0) }
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
