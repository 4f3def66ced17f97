import Foundation

/// The app's flow as a build leaves it (`.holocron-flow.json`) and the `.flow` snapshot stores it: kinds,
/// transitions and active lint findings. No source lines, so moving code does not make two flows differ.
package struct FlowRecord: Codable, Sendable, Equatable {
    package struct Kind: Codable, Sendable, Equatable {
        package var id: String
        package var name: String
        package var flow: String
        package var pages: Int
    }

    package struct Transition: Codable, Sendable, Equatable {
        package var from: String
        package var to: String
        package var presentation: String
        package var links: Int
    }

    package struct Finding: Codable, Sendable, Equatable, Hashable {
        package var rule: String
        package var kind: String?
        package var message: String
    }

    /// A newer holocron may write a higher one.
    package var format = 1
    package var kinds: [Kind]
    package var transitions: [Transition]
    package var findings: [Finding]

    package init(kinds: [Kind], transitions: [Transition], findings: [Finding]) {
        self.kinds = kinds
        self.transitions = transitions
        self.findings = findings
    }

    package init(graph: FlowGraph, lint: FlowLintReport?) {
        kinds = graph.kinds.map { Kind(id: $0.id, name: $0.kind.name, flow: $0.kind.flow, pages: $0.pages) }
        transitions = graph.transitions.map {
            Transition(from: $0.from, to: $0.to, presentation: $0.presentation.rawValue, links: $0.links)
        }
        findings = (lint?.active ?? []).map { Finding(rule: $0.rule.id, kind: $0.kind?.id, message: $0.message) }
    }

    /// Sorted keys, one field per line: the same bytes on every machine.
    package func json() -> String { FlowJSON.encode(self) }

    /// Reads a record written by ``json()``.
    /// - Throws: ``FlowSiteError`` naming `source` when the text is not a flow record.
    package init(json data: Data, source: String) throws {
        do {
            self = try JSONDecoder().decode(FlowRecord.self, from: data)
        } catch {
            throw FlowSiteError(
                .siteUnreadable(
                    path: source,
                    message:
                        "not a flow record (\(Self.describe(error))); rebuild the site with this version of FlowSite"))
        }
    }

    /// The kind with `id`, if any.
    package func kind(_ id: String) -> Kind? { kinds.first { $0.id == id } }

    private static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context), DecodingError.keyNotFound(_, let context),
            DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return path.isEmpty ? context.debugDescription : "\(path): \(context.debugDescription)"
        default:
            return "\(error)"
        }
    }
}

/// `.holocron-pages`: a `pages 1` line, then `<content fingerprint> <kind id> <file path>` per page. `holocron diff`
/// groups pages by kind with it and tells a layout change from a content change without reading the pages.
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
}
