/// A value a template shows: text (escaped by ``HTMLEscaping`` unless written `{{{…}}}`), a
/// flag for sections, or a list of frames a section repeats over.
enum TemplateValue: Sendable {
    case text(String)
    /// HTML the engine made (cmark's output): written as it is, even in `{{…}}`.
    case html([UInt8])
    case flag(Bool)
    case list([TemplateFrame])
    /// A frame of named values: `{{name.key}}`, or `{{#name}}` to look inside it.
    case object(TemplateFrame)
}

/// Named values a template shows, kept as a short list of pairs and found by comparing names:
/// a page sets about a dozen, most of them small strings that compare as two machine words,
/// which is cheaper than hashing each into a dictionary (the layout runs once per page).
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

    /// The value named `name`; setting `nil` removes it.
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
        // Lengths first: most names differ in length, and comparing two lengths is cheaper
        // than a call to compare two strings.
        let count = name.utf8.count
        return entries.firstIndex { $0.name.utf8.count == count && $0.name == name }
    }

    /// The pairs as a dictionary, for swift-mustache.
    var dictionary: [String: TemplateValue] {
        Dictionary(entries.map { ($0.name, $0.value) }, uniquingKeysWith: { _, last in last })
    }
}
