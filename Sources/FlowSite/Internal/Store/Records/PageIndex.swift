import Foundation

/// `.flowsite-pages`: a `pages 1` line, then `<content fingerprint> <kind id> <file path>` per page. The command
/// line's `diff` groups pages by kind with it and tells a layout change from a content change without reading the
/// pages.
struct PageIndex: Sendable, Equatable {
    struct Entry: Sendable, Equatable {
        var content: StableHash
        var kind: String
    }

    var pages: [String: Entry]

    init(pages: [String: Entry]) { self.pages = pages }

    /// Pages in path order.
    func bytes() -> [UInt8] {
        let sorted = pages.sorted(by: { $0.key < $1.key })
        return Self.bytes(count: sorted.count) {
            sorted[$0].key
        } kind: {
            sorted[$0].value.kind
        } content: {
            sorted[$0].value.content
        }
    }

    /// `count` pages already in path order, read through closures: no dictionary of them all.
    static func bytes(
        count: Int, path: (Int) -> String, kind: (Int) -> String, content: (Int) -> StableHash
    ) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(16 + count * 80)
        lines(count: count, path: path, kind: kind, content: content) { out.append(contentsOf: $0) }
        return out
    }

    /// ``bytes(count:path:kind:content:)`` handed to `emit` a few lines at a time.
    static func lines(
        count: Int, path: (Int) -> String, kind: (Int) -> String, content: (Int) -> StableHash,
        emit: (UnsafeRawBufferPointer) throws -> Void
    ) rethrows {
        var out: [UInt8] = []
        out.reserveCapacity(1 << 16)
        out.append(contentsOf: "pages 1\n".utf8)
        var escapedKinds: [String: String] = [:]
        for index in 0..<count {
            content(index).appendHex(to: &out)
            out.append(UInt8(ascii: " "))
            let name = kind(index)
            if let escaped = escapedKinds[name] {
                out.append(contentsOf: escaped.utf8)
            } else {
                let escaped = Self.escaped(name)
                escapedKinds[name] = escaped
                out.append(contentsOf: escaped.utf8)
            }
            out.append(UInt8(ascii: " "))
            out.append(contentsOf: path(index).utf8)
            out.append(UInt8(ascii: "\n"))
            if out.count >= 1 << 16 - 512 {
                try out.withUnsafeBytes(emit)
                out.removeAll(keepingCapacity: true)
            }
        }
        try out.withUnsafeBytes(emit)
    }

    /// Parses ``bytes()``.
    /// - Throws: ``FlowSiteError`` naming `source` and the line when a line is malformed.
    init(bytes: [UInt8], source: String) throws {
        var pages: [String: Entry] = [:]
        let text = String(decoding: bytes, as: UTF8.self)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)[...]
        guard lines.first == "pages 1" else {
            throw FlowSiteError(
                .siteUnreadable(
                    path: source, message: "line 1 is not `pages 1`; rebuild the site with this version of FlowSite"))
        }
        lines = lines.dropFirst()
        for (offset, line) in lines.enumerated() where !line.isEmpty {
            let fields = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count == 3, let content = StableHash(fields[0]), !fields[1].isEmpty, !fields[2].isEmpty else {
                throw FlowSiteError(
                    .siteUnreadable(
                        path: source,
                        message: "line \(offset + 2) is not `<fingerprint> <kind> <path>`; rebuild the site"))
            }
            pages[String(fields[2])] = Entry(content: content, kind: Self.unescaped(fields[1]))
        }
        self.pages = pages
    }

    /// `%`, space and line breaks percent-encoded, so the id stays one field.
    private static func escaped(_ id: String) -> String {
        guard id.utf8.contains(where: { $0 == 0x25 || $0 == 0x20 || $0 == 0x0A || $0 == 0x0D }) else { return id }
        return id.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: " ", with: "%20")
            .replacingOccurrences(of: "\n", with: "%0A").replacingOccurrences(of: "\r", with: "%0D")
    }

    private static func unescaped(_ field: Substring) -> String {
        guard field.contains("%") else { return String(field) }
        return String(field).replacingOccurrences(of: "%0D", with: "\r").replacingOccurrences(of: "%0A", with: "\n")
            .replacingOccurrences(of: "%20", with: " ").replacingOccurrences(of: "%25", with: "%")
    }

    /// The page index with `contents`' fingerprints written over; `nil` when a page is missing. Lines are
    /// `<content> <kind> <path>`: a page's line ends with its second space and its path.
    static func patched(_ bytes: consuming [UInt8], contents: [String: StableHash]) -> [UInt8]? {
        var bytes = bytes
        let newline = UInt8(ascii: "\n")
        let space = UInt8(ascii: " ")
        let wanted: [(tail: [UInt8], hex: [UInt8])] = contents.map { path, content in
            var hex: [UInt8] = []
            content.appendHex(to: &hex)
            return ([space] + Array(path.utf8), hex)
        }
        var matched = [Bool](repeating: false, count: wanted.count)
        let count = bytes.count
        bytes.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            var lineStart = 0
            while lineStart < count {
                let lineEnd =
                    memchr(base + lineStart, Int32(newline), count - lineStart).map {
                        $0.assumingMemoryBound(to: UInt8.self) - base
                    } ?? count
                defer { lineStart = lineEnd + 1 }
                guard lineEnd - lineStart > 34, buffer[lineStart + 32] == space else { continue }
                for (number, page) in wanted.enumerated() where lineEnd - lineStart > 33 + page.tail.count {
                    let at = lineEnd - page.tail.count
                    guard memcmp(base + at, page.tail, page.tail.count) == 0,
                        buffer[(lineStart + 33)..<lineEnd].firstIndex(of: space) == at
                    else { continue }
                    for (offset, digit) in page.hex.enumerated() { buffer[lineStart + offset] = digit }
                    matched[number] = true
                }
            }
        }
        return matched.allSatisfy { $0 } ? bytes : nil
    }
}
