import FlowSiteUtilities

/// A Mustache template compiled once into literal bytes and slots, rendered by appending into one byte buffer.
///
/// Supports variables (escaped, `{{{raw}}}`, `{{& raw}}`), sections and inverted sections, partials, comments,
/// dotted names and the spec's standalone-line rules. Anything else (set delimiters, inheritance, pragmas,
/// `{{.}}`) makes ``compile(_:)`` return `nil`: one engine renders every template.
///
/// Flattened into plain operations: reading a tree of reference-counted nodes from every core would write
/// every node's count, and the cores would take each other's cache lines.
struct CompiledTemplate: Sendable {
    indirect enum Node: Sendable {
        case bytes([UInt8])
        case variable(Name, escaped: Bool)
        case section(Name, inverted: Bool, [Node])
        case partial(String, indentation: [UInt8])
    }

    /// A dotted name's parts, split once when compiled.
    struct Name: Sendable {
        let first: String
        let rest: [String]

        init(_ text: String) {
            let parts = text.split(separator: ".").map(String.init)
            first = parts[0]
            rest = Array(parts.dropFirst())
        }
    }

    /// One step of the flattened template; ranges are into ``literals``, names into ``names``.
    enum Op: Sendable {
        case literal(start: Int32, end: Int32)
        case variable(name: Int32, escaped: Bool)
        /// The section's children are the operations up to `end`.
        case section(name: Int32, inverted: Bool, end: Int32)
        case partial(name: Int32, indentationStart: Int32, indentationEnd: Int32)
    }

    let ops: [Op]
    let literals: [UInt8]
    let names: [Name]
    /// By the index `.partial` holds.
    let partialNames: [String]

    /// Why `source` does not compile: the line of the first unsupported tag.
    static func unsupported(in source: String) -> String {
        let kinds: [(opening: String, what: String)] = [
            ("{{=", "set delimiters"), ("{{$", "a block"), ("{{<", "a parent template"), ("{{%", "a pragma"),
            ("{{.}}", "the implicit iterator {{.}}"),
            ("{{ . }}", "the implicit iterator {{.}}")
        ]
        for (number, line) in source.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            for kind in kinds where line.contains(kind.opening) {
                return """
                    line \(number + 1): \(kind.what) is Mustache FlowSite's renderer does not support; write it \
                    with variables, sections and partials
                    """
            }
        }
        return """
            it uses Mustache FlowSite's renderer does not support (set delimiters, blocks and parents, pragmas, \
            {{.}}); write it with variables, sections and partials
            """
    }

    /// `nil` for Mustache outside the supported part.
    static func compile(_ source: String) -> CompiledTemplate? {
        var parser = Parser(Array(source.utf8))
        guard let nodes = parser.parse(closing: nil), parser.atEnd else { return nil }
        var flat = (ops: [Op](), literals: [UInt8](), names: [Name](), partials: [String]())
        flatten(nodes, into: &flat)
        return CompiledTemplate(ops: flat.ops, literals: flat.literals, names: flat.names, partialNames: flat.partials)
    }

    private static func flatten(
        _ nodes: [Node], into flat: inout (ops: [Op], literals: [UInt8], names: [Name], partials: [String])
    ) {
        func range(of bytes: [UInt8]) -> (Int32, Int32) {
            let start = Int32(flat.literals.count)
            flat.literals.append(contentsOf: bytes)
            return (start, Int32(flat.literals.count))
        }
        for node in nodes {
            switch node {
            case .bytes(let bytes):
                let (start, end) = range(of: bytes)
                flat.ops.append(.literal(start: start, end: end))
            case .variable(let name, let escaped):
                flat.names.append(name)
                flat.ops.append(.variable(name: Int32(flat.names.count - 1), escaped: escaped))
            case .section(let name, let inverted, let children):
                flat.names.append(name)
                let name = Int32(flat.names.count - 1)
                let at = flat.ops.count
                flat.ops.append(.section(name: name, inverted: inverted, end: 0))
                flatten(children, into: &flat)
                flat.ops[at] = .section(name: name, inverted: inverted, end: Int32(flat.ops.count))
            case .partial(let name, let indentation):
                flat.partials.append(name)
                let (start, end) = range(of: indentation)
                flat.ops.append(
                    .partial(name: Int32(flat.partials.count - 1), indentationStart: start, indentationEnd: end))
            }
        }
    }

    /// Appends the output for `stack` (innermost frame last); `partials` resolves `{{> name}}`.
    func render(
        _ stack: inout [TemplateFrame], into out: inout [UInt8],
        partials: [String: CompiledTemplate], indentation: [UInt8] = []
    ) {
        render(&stack, into: &out, partials: partials, indentation: indentation, atLineStart: true)
    }

    @discardableResult
    private func render(
        _ stack: inout [TemplateFrame], into out: inout [UInt8],
        partials: [String: CompiledTemplate], indentation: [UInt8], atLineStart: Bool
    ) -> Bool {
        ops.withUnsafeBufferPointer { ops in
            literals.withUnsafeBufferPointer { literals in
                names.withUnsafeBufferPointer { names in
                    let program = Program(
                        ops: ops, literals: literals, names: names, partialNames: partialNames, partials: partials)
                    return program.run(0..<ops.count, &stack, &out, indentation, atLineStart: atLineStart)
                }
            }
        }
    }

    private static func lookup(_ name: Name, _ stack: [TemplateFrame]) -> TemplateValue? {
        var value: TemplateValue?
        var index = stack.count
        while index > 0, value == nil {
            index -= 1
            value = stack[index][name.first]
        }
        // A dotted name: the first part is looked up in the stack, the rest inside it.
        for part in name.rest {
            guard case .object(let frame)? = value else { return nil }
            value = frame[part]
        }
        return value
    }

    /// Read without retaining anything per operation.
    private struct Program {
        let ops: UnsafeBufferPointer<Op>
        let literals: UnsafeBufferPointer<UInt8>
        let names: UnsafeBufferPointer<Name>
        let partialNames: [String]
        let partials: [String: CompiledTemplate]

        func run(
            _ range: Range<Int>, _ stack: inout [TemplateFrame], _ out: inout [UInt8], _ indentation: [UInt8],
            atLineStart: Bool
        ) -> Bool {
            var lineStart = atLineStart
            var position = range.lowerBound
            while position < range.upperBound {
                let op = ops[position]
                position += 1
                switch op {
                case .literal(let start, let end):
                    let bytes = UnsafeBufferPointer(rebasing: literals[Int(start)..<Int(end)])
                    if indentation.isEmpty {
                        out.append(contentsOf: bytes)
                        if let last = bytes.last { lineStart = last == UInt8(ascii: "\n") }
                    } else {
                        for byte in bytes {
                            if lineStart { out.append(contentsOf: indentation) }
                            out.append(byte)
                            lineStart = byte == UInt8(ascii: "\n")
                        }
                    }
                case .variable(let name, let escaped):
                    guard let value = CompiledTemplate.lookup(names[Int(name)], stack) else { continue }
                    let text: String
                    switch value {
                    case .text(let string): text = string
                    case .flag(let flag): text = flag ? "true" : "false"
                    case .list, .object: continue
                    case .html(let html):
                        if lineStart && !indentation.isEmpty { out.append(contentsOf: indentation) }
                        out.append(contentsOf: html)
                        if let last = html.last { lineStart = last == UInt8(ascii: "\n") }
                        continue
                    }
                    if text.isEmpty { continue }
                    if lineStart && !indentation.isEmpty { out.append(contentsOf: indentation) }
                    if escaped { HTMLEscaping.append(text, to: &out) } else { out.append(contentsOf: text.utf8) }
                    lineStart = false
                case .section(let name, let inverted, let end):
                    let children = position..<Int(end)
                    position = Int(end)
                    let value = CompiledTemplate.lookup(names[Int(name)], stack)
                    let truthy: Bool
                    switch value {
                    case nil: truthy = false
                    case .flag(let flag)?: truthy = flag
                    case .list(let items)?: truthy = !items.isEmpty
                    case .text?, .html?, .object?: truthy = true
                    }
                    if inverted {
                        if !truthy { lineStart = run(children, &stack, &out, indentation, atLineStart: lineStart) }
                    } else if case .list(let items)? = value {
                        for item in items {
                            stack.append(item)
                            lineStart = run(children, &stack, &out, indentation, atLineStart: lineStart)
                            stack.removeLast()
                        }
                    } else if case .object(let frame)? = value {
                        stack.append(frame)
                        lineStart = run(children, &stack, &out, indentation, atLineStart: lineStart)
                        stack.removeLast()
                    } else if truthy {
                        lineStart = run(children, &stack, &out, indentation, atLineStart: lineStart)
                    }
                case .partial(let name, let start, let end):
                    guard let partial = partials[partialNames[Int(name)]] else { continue }
                    let extra = UnsafeBufferPointer(rebasing: literals[Int(start)..<Int(end)])
                    lineStart = partial.render(
                        &stack, into: &out, partials: partials, indentation: indentation + extra, atLineStart: lineStart
                    )
                }
            }
            return lineStart
        }
    }
}

extension CompiledTemplate {
    fileprivate struct Parser {
        let bytes: [UInt8]
        var index = 0
        var atEnd: Bool { index >= bytes.count }

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        private enum Tag {
            case variable(String, escaped: Bool)
            case open(String, inverted: Bool)
            case close(String)
            case partial(String)
            case comment
        }

        /// Nodes up to `{{/closing}}` (or the end); nil on anything unsupported or a mismatched section.
        mutating func parse(closing: String?) -> [Node]? {
            var nodes: [Node] = []
            var text: [UInt8] = []
            func flush() {
                if !text.isEmpty { nodes.append(.bytes(text)) }
                text = []
            }
            while index < bytes.count {
                guard bytes[index] == UInt8(ascii: "{"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "{")
                else {
                    text.append(bytes[index])
                    index += 1
                    continue
                }
                let tagStart = index
                guard let (tag, tagEnd) = readTag(at: index) else { return nil }
                // Standalone: only whitespace around it on its line. Variables never are.
                var standalone = false
                var lineBegin = tagStart
                var lineEnd = tagEnd
                if case .variable = tag {
                } else {
                    while lineBegin > 0,
                        bytes[lineBegin - 1] == UInt8(ascii: " ") || bytes[lineBegin - 1] == UInt8(ascii: "\t")
                    { lineBegin -= 1 }
                    let startsLine = lineBegin == 0 || bytes[lineBegin - 1] == UInt8(ascii: "\n")
                    while lineEnd < bytes.count,
                        bytes[lineEnd] == UInt8(ascii: " ") || bytes[lineEnd] == UInt8(ascii: "\t")
                    { lineEnd += 1 }
                    var afterLine = lineEnd
                    var endsLine = false
                    if afterLine == bytes.count {
                        endsLine = true
                    } else if bytes[afterLine] == UInt8(ascii: "\n") {
                        afterLine += 1
                        endsLine = true
                    } else if bytes[afterLine] == UInt8(ascii: "\r"), afterLine + 1 < bytes.count,
                        bytes[afterLine + 1] == UInt8(ascii: "\n")
                    {
                        afterLine += 2
                        endsLine = true
                    }
                    // Text already taken from this line must be only the whitespace before the tag.
                    let precededOnlyBySpace = text.count >= tagStart - lineBegin
                    if startsLine && endsLine && precededOnlyBySpace {
                        standalone = true
                        lineEnd = afterLine
                    }
                }
                var indentation: [UInt8] = []
                if standalone {
                    indentation = Array(bytes[lineBegin..<tagStart])
                    text.removeLast(tagStart - lineBegin)
                    index = lineEnd
                } else {
                    index = tagEnd
                }
                switch tag {
                case .variable(let name, let escaped):
                    flush()
                    nodes.append(.variable(Name(name), escaped: escaped))
                case .comment:
                    continue
                case .partial(let name):
                    flush()
                    nodes.append(.partial(name, indentation: standalone ? indentation : []))
                case .open(let name, let inverted):
                    flush()
                    guard let children = parse(closing: name) else { return nil }
                    nodes.append(.section(Name(name), inverted: inverted, children))
                case .close(let name):
                    guard name == closing else { return nil }
                    flush()
                    return nodes
                }
            }
            guard closing == nil else { return nil }
            flush()
            return nodes
        }

        /// The tag at `start` (`{{`) and the index after it.
        private func readTag(at start: Int) -> (Tag, Int)? {
            var i = start + 2
            var triple = false
            if i < bytes.count, bytes[i] == UInt8(ascii: "{") {
                triple = true
                i += 1
            }
            let close: [UInt8] = triple ? Array("}}}".utf8) : Array("}}".utf8)
            var end = i
            while end + close.count <= bytes.count, !bytes[end..<(end + close.count)].elementsEqual(close) { end += 1 }
            guard end + close.count <= bytes.count else { return nil }
            let inner = String(decoding: bytes[i..<end], as: UTF8.self).trimmingSpaces
            let after = end + close.count
            if triple { return Self.name(inner).map { (.variable($0, escaped: false), after) } }
            guard let sigil = inner.first else { return nil }
            let rest = String(inner.dropFirst()).trimmingSpaces
            switch sigil {
            case "!": return (.comment, after)
            case "#": return Self.name(rest).map { (.open($0, inverted: false), after) }
            case "^": return Self.name(rest).map { (.open($0, inverted: true), after) }
            case "/": return Self.name(rest).map { (.close($0), after) }
            case ">": return Self.name(rest).map { (.partial($0), after) }
            case "&": return Self.name(rest).map { (.variable($0, escaped: false), after) }
            case "=", "$", "<", "%": return nil
            default: return Self.name(inner).map { (.variable($0, escaped: true), after) }
            }
        }

        /// A name: letters, digits, `_` and `-`, in dotted parts; `.` alone is not supported.
        private static func name(_ text: String) -> String? {
            guard !text.isEmpty, !text.hasPrefix("."), !text.hasSuffix("."), !text.contains(".."),
                text.unicodeScalars.allSatisfy({
                    ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_"
                        || $0 == "-" || $0 == "."
                })
            else { return nil }
            return text
        }
    }
}

extension String {
    fileprivate var trimmingSpaces: String {
        var scalars = Substring(self).unicodeScalars
        while let first = scalars.first, first == " " || first == "\t" { scalars.removeFirst() }
        while let last = scalars.last, last == " " || last == "\t" { scalars.removeLast() }
        return String(scalars)
    }
}
