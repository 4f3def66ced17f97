enum TemplateValue: Sendable {
    /// Escaped unless written `{{{…}}}`.
    case text(String)
    /// HTML the engine made: written as it is, even in `{{…}}`.
    case html([UInt8])
    case flag(Bool)
    case list([TemplateFrame])
    /// `{{name.key}}`, or `{{#name}}` to look inside it.
    case object(TemplateFrame)
}

/// A short list of named values found by comparing names: a page sets about a dozen small strings, cheaper to
/// compare than to hash into a dictionary.
struct TemplateFrame: Sendable, ExpressibleByDictionaryLiteral {
    private struct Entry: Sendable {
        let name: String
        var value: TemplateValue
    }

    private var entries: [Entry] = []

    init() {}

    init(dictionaryLiteral elements: (String, TemplateValue)...) {
        entries.reserveCapacity(elements.count)
        for (name, value) in elements { self[name] = value }
    }

    init(_ dictionary: [String: TemplateValue]) {
        entries.reserveCapacity(dictionary.count)
        for (name, value) in dictionary { entries.append(Entry(name: name, value: value)) }
    }

    /// Setting `nil` removes it.
    subscript(name: String) -> TemplateValue? {
        get { index(of: name).map { entries[$0].value } }
        set {
            if let index = index(of: name) {
                if let newValue { entries[index].value = newValue } else { entries.remove(at: index) }
            } else if let newValue {
                entries.append(Entry(name: name, value: newValue))
            }
        }
    }

    private func index(of name: String) -> Int? {
        // Lengths first: most names differ in length.
        let count = name.utf8.count
        return entries.firstIndex { $0.name.utf8.count == count && $0.name == name }
    }

    /// For swift-mustache.
    var dictionary: [String: TemplateValue] {
        Dictionary(entries.map { ($0.name, $0.value) }, uniquingKeysWith: { _, last in last })
    }
}
