/// A kind of screen: what a route's case (or family of cases) stands for, such as Home or Character. The flow
/// map, flow lint and flow diff speak of kinds, not of the pages they group.
///
/// By default a route's kind is its enum case, with the cases of enum payloads inside it
/// (`.resources(.people, .list(page: 2))` is `resources-people-list`); an app names its kinds by implementing
/// ``Route/screenKind``:
///
/// ```swift
/// var screenKind: ScreenKind {
///     switch self {
///     case .home: ScreenKind("home", name: "Home")
///     case .detail: ScreenKind("detail", name: "Detail", flow: "Catalogue")
///     }
/// }
/// ```
public struct ScreenKind: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// A stable identifier: lint suppressions, baselines and diffs refer to the kind by it.
    public let id: String
    /// The name people read: "Character list".
    public let name: String
    /// The flow (child coordinator) that owns the kind, such as "Characters": the flow map draws one map per flow.
    public let flow: String
    /// Where the app declares the kind; `nil` for a kind read from the route's case. Not part of
    /// the kind's identity: two kinds with one id, name and flow are equal wherever declared.
    public let location: CodeLocation?

    /// A kind named `name` (the id by default) in `flow` (its name by default), declared at the caller's line.
    public init(
        _ id: String, name: String? = nil, flow: String? = nil, fileID: String = #fileID, filePath: String = #filePath,
        line: Int = #line
    ) {
        self.init(id, name: name, flow: flow, location: CodeLocation(fileID: fileID, filePath: filePath, line: line))
    }

    private init(_ id: String, name: String?, flow: String?, location: CodeLocation?) {
        self.id = id
        self.name = name ?? id
        self.flow = flow ?? name ?? id
        self.location = location
    }

    public var description: String { name }

    public static func == (lhs: ScreenKind, rhs: ScreenKind) -> Bool {
        (lhs.id, lhs.name, lhs.flow) == (rhs.id, rhs.name, rhs.flow)
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(id) }

    public static func < (lhs: ScreenKind, rhs: ScreenKind) -> Bool { lhs.id < rhs.id }
}

extension ScreenKind {
    /// The kind of `route` read by reflection: its case's name, then the cases of enums in its payload, joined by
    /// hyphens; the flow is the outer case. A route that isn't an enum is one kind, named after its type.
    public init<R: Route>(derivedFrom route: R) {
        var names: [String] = []
        Self.collectCaseNames(route, into: &names, depth: 0)
        if names.isEmpty { names = ["\(R.self)"] }
        let words = names.map(Self.words)
        self.init(names.joined(separator: "-"), name: words.joined(separator: " · "), flow: words[0], location: nil)
    }

    /// Appends the case names of `value` when it is an enum, and of the enums in its payload.
    private static func collectCaseNames(_ value: Any, into names: inout [String], depth: Int) {
        guard depth < 4 else { return }
        let mirror = Mirror(reflecting: value)
        switch mirror.displayStyle {
        case .enum:
            if let child = mirror.children.first, let label = child.label {
                names.append(label)
                collectCaseNames(child.value, into: &names, depth: depth + 1)
            } else {
                // A case without a payload prints as its name.
                names.append(String(describing: value))
            }
        case .tuple:
            for child in mirror.children { collectCaseNames(child.value, into: &names, depth: depth + 1) }
        default:
            break
        }
    }

    /// `characterList` as "Character list".
    private static func words(_ name: String) -> String {
        var text = ""
        for character in name {
            if character.isUppercase, !text.isEmpty {
                text += " " + character.lowercased()
            } else {
                text.append(character)
            }
        }
        return text.prefix(1).uppercased() + text.dropFirst()
    }
}
