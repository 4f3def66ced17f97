import Foundation

/// Values as Swift source, for the tests flow lint writes: a route as an expression in a place that knows its type
/// (`.resources(.people, .list(page: 1))`), text as a string literal, a name as an identifier, and a line of a
/// comment. Built from the value's `Mirror`, never its `description`: an app's route usually prints as something
/// for people (`people page 1`), which is no Swift.
enum SwiftSource {
    /// Why a value can't be written as Swift; the sentence completes "…, as …".
    struct Unwritable: Error, Equatable {
        let reason: String
    }

    /// What writing a value needed beyond the app's own modules.
    struct Needs: OptionSet {
        let rawValue: Int
        /// `UUID(uuidString:)`, `URL(string:)`.
        static let foundation = Needs(rawValue: 1)
    }

    /// `value` as an expression whose type the context gives: an enum case as `.name(…)`, a struct as
    /// `.init(field: …)` (its memberwise initialiser), collections as literals.
    /// - Throws: ``Unwritable`` for a class, a function, a value with a custom mirror, or a float that is not finite.
    static func expression(of value: Any, needs: inout Needs) throws(Unwritable) -> String {
        try expression(of: value, depth: 0, needs: &needs)
    }

    private static func expression(of value: Any, depth: Int, needs: inout Needs) throws(Unwritable) -> String {
        guard depth < 12 else { throw Unwritable(reason: "its payload nests too deep") }
        switch value {
        case let text as String: return literal(text)
        case let text as Substring: return literal(String(text))
        case let character as Character: return literal(String(character))
        case let slug as Slug: return literal(slug.rawValue) // ExpressibleByStringLiteral, and a slug stays itself
        case let flag as Bool: return flag ? "true" : "false"
        case is Int, is Int8, is Int16, is Int32, is Int64, is UInt, is UInt8, is UInt16, is UInt32, is UInt64:
            return "\(value)"
        case let number as Double:
            guard number.isFinite else { throw Unwritable(reason: "\(number) is no literal") }
            return "\(number)"
        case let number as Float:
            guard number.isFinite else { throw Unwritable(reason: "\(number) is no literal") }
            return "\(number)"
        case let id as UUID:
            needs.insert(.foundation)
            return "UUID(uuidString: \(literal(id.uuidString)))!"
        case let url as URL:
            needs.insert(.foundation)
            return "URL(string: \(literal(url.absoluteString)))!"
        default:
            break
        }
        let mirror = Mirror(reflecting: value)
        func list(_ values: some Sequence<Any>) throws(Unwritable) -> [String] {
            var items: [String] = []
            for value in values { items.append(try expression(of: value, depth: depth + 1, needs: &needs)) }
            return items
        }
        switch mirror.displayStyle {
        case .optional:
            guard let wrapped = mirror.children.first?.value else { return "nil" }
            return try expression(of: wrapped, depth: depth + 1, needs: &needs)
        case .collection:
            return "[" + (try list(mirror.children.map(\.value))).joined(separator: ", ") + "]"
        case .set:
            // Sorted: a set's order is its hashes', which differ from run to run.
            return "[" + (try list(mirror.children.map(\.value))).sorted().joined(separator: ", ") + "]"
        case .dictionary:
            var pairs: [String] = []
            for child in mirror.children {
                let pair = Mirror(reflecting: child.value).children.map(\.value)
                guard pair.count == 2 else { throw Unwritable(reason: "a dictionary's entry is no pair") }
                let parts = try list(pair)
                pairs.append("\(parts[0]): \(parts[1])")
            }
            return pairs.isEmpty ? "[:]" : "[" + pairs.sorted().joined(separator: ", ") + "]"
        case .tuple:
            return "(" + (try arguments(mirror, depth: depth, needs: &needs)) + ")"
        case .enum:
            let type = String(reflecting: Swift.type(of: value))
            guard !(value is any CustomReflectable) else {
                throw Unwritable(reason: "\(type) has a custom mirror, which hides its cases")
            }
            guard let child = mirror.children.first, let name = child.label else {
                guard let name = caseName(of: value) else { throw Unwritable(reason: "\(type)'s case has no name") }
                return "." + identifier(name)
            }
            let payload = Mirror(reflecting: child.value)
            let inside =
                payload.displayStyle == .tuple
                ? try arguments(payload, depth: depth, needs: &needs)
                : try expression(of: child.value, depth: depth + 1, needs: &needs)
            return ".\(identifier(name))(\(inside))"
        case .struct:
            let type = String(reflecting: Swift.type(of: value))
            guard !(value is any CustomReflectable) else {
                throw Unwritable(reason: "\(type) has a custom mirror, which hides its stored properties")
            }
            if mirror.children.contains(where: { $0.label?.hasPrefix("_") != false }) {
                throw Unwritable(reason: "\(type) has a stored property its memberwise initialiser does not take")
            }
            return ".init(" + (try arguments(mirror, depth: depth, needs: &needs)) + ")"
        case .class:
            throw Unwritable(reason: "\(String(reflecting: Swift.type(of: value))) is a class")
        default:
            throw Unwritable(reason: "\(String(reflecting: Swift.type(of: value))) has no literal")
        }
    }

    /// A tuple's or a struct's fields as arguments: `id: 1, slug: "luke"`, unlabelled where the tuple is (`.0`).
    private static func arguments(_ mirror: Mirror, depth: Int, needs: inout Needs) throws(Unwritable) -> String {
        var parts: [String] = []
        for child in mirror.children {
            let value = try expression(of: child.value, depth: depth + 1, needs: &needs)
            if let label = child.label, !label.hasPrefix(".") {
                parts.append("\(identifier(label)): \(value)")
            } else {
                parts.append(value)
            }
        }
        return parts.joined(separator: ", ")
    }

    /// The name of an enum case without a payload, which a `Mirror` does not give: from the Swift runtime, as the
    /// standard library's own printing reads it, since the type's `description` is the app's text.
    private static func caseName(of value: Any) -> String? {
        func open<T>(_ value: T) -> String? { swiftEnumCaseName(value).map { String(cString: $0) } }
        return _openExistential(value, do: open)
    }

    /// A Swift string literal of `text`: quotes and backslashes escaped, and every control, format (bidirectional
    /// controls among them) and line-separating character as `\u{…}`, so the literal stays on its line and shows
    /// what it holds.
    static func literal(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if isHidden(scalar) {
                    out += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    /// Text for a `//` comment: what would end the line, or hide or reorder what follows, as `\u{…}`.
    static func comment(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            if isHidden(scalar) || scalar == "\n" || scalar == "\r" || scalar == "\t" {
                out += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    private static func isHidden(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .privateUse, .unassigned: true
        default: false
        }
    }

    /// `name` as an identifier after a dot or as a label: in backticks when it is a word Swift keeps.
    static func identifier(_ name: String) -> String {
        keywords.contains(name) ? "`\(name)`" : name
    }

    /// Swift's keywords and the words with a meaning of their own after a dot, none of which names a type or a
    /// member bare.
    static let keywords: Set<String> = [
        "associatedtype", "borrowing", "class", "consuming", "deinit", "enum", "extension", "fileprivate", "func",
        "import", "init", "inout", "internal", "let", "nonisolated", "open", "operator", "package", "private",
        "precedencegroup", "protocol", "Protocol", "public", "rethrows", "self", "Self", "static", "struct",
        "subscript", "super", "throws", "Type", "typealias", "var", "break", "case", "catch", "continue", "default",
        "defer", "do", "else", "fallthrough", "for", "guard", "if", "in", "repeat", "return", "switch", "throw",
        "where", "while", "Any", "as", "await", "false", "is", "nil", "true", "try"
    ]

    /// Words of any text in lower camel case, an identifier of ASCII letters and digits: `Character list` as
    /// `characterList`, whatever the text's script (it is spelt as a ``Slug`` first); `untitled` for none.
    static func camelCase(_ text: String, upperFirst: Bool = false) -> String {
        let words = Slug(text).rawValue.split(separator: "-")
        var name = ""
        for (index, word) in words.enumerated() {
            name += index == 0 && !upperFirst ? String(word) : word.prefix(1).uppercased() + word.dropFirst()
        }
        return name
    }
}

/// The Swift runtime's name of an enum value's case, the one the standard library's printing uses
/// (`swift_EnumCaseName`, which it declares the same way); `nil` for no enum.
@_silgen_name("swift_EnumCaseName")
private func swiftEnumCaseName<T>(_ value: T) -> UnsafePointer<CChar>?
