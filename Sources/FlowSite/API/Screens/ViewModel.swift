/// Owns a screen's presentation logic: loads its ``State`` through the services it declares.
///
/// A view model states the services it needs as a `Dependencies` composition, so tests pass a container of mocks:
///
/// ```swift
/// struct DetailViewModel: ViewModel {
///     typealias Dependencies = HasGreetingService & HasLogger
///     let dependencies: any Dependencies
///     func load() async -> ScreenState<String> { … }
/// }
/// ```
public protocol ViewModel<State>: Sendable {
    /// The presentation state: a plain value that can be rendered, compared and snapshot-tested.
    associatedtype State: Sendable

    /// Loads the state to show. Failures become an error state, not a thrown error.
    func load() async -> State
}

/// The common shape of a screen's presentation state.
public enum ScreenState<Content: Sendable>: Sendable {
    /// Nothing loaded yet.
    case loading
    /// The content to show.
    case loaded(Content)
    /// Loaded, but there is nothing to show: a title and a message in the screen's words (a string literal is the
    /// message alone). ``MarkdownDocument/emptyState(_:)`` renders one.
    case empty(EmptyState)
    /// Loading failed; the message is meant for the reader.
    case error(String)

    /// The loaded content, if any.
    public var content: Content? {
        if case .loaded(let content) = self { content } else { nil }
    }
}

/// What a screen shows when it has nothing to show: a short title ("No followers yet") and a message that says what
/// to do next, as a platform's content-unavailable view does.
///
/// ```swift
/// return .empty(EmptyState(title: "No followers yet", message: "Share your profile to find readers."))
/// return .empty("No followers yet.")  // the message alone
/// ```
public struct EmptyState: Sendable, Hashable, ExpressibleByStringInterpolation {
    /// The heading of the empty state, or `nil` for a message alone.
    public var title: String?
    /// What there is not, and what to do next.
    public var message: String

    /// An empty state titled `title` that says `message`.
    public init(title: String? = nil, message: String) {
        self.title = title
        self.message = message
    }

    /// An empty state that is a message alone.
    public init(stringLiteral message: String) { self.init(message: message) }

    public init(stringInterpolation: DefaultStringInterpolation) {
        self.init(message: String(stringInterpolation: stringInterpolation))
    }
}

extension ScreenState: EmptiableState {
    /// Whether the state is ``empty(_:)``: loaded, with nothing to show.
    public var isEmpty: Bool {
        if case .empty = self { true } else { false }
    }
}

extension ScreenState: Equatable where Content: Equatable {}
extension ScreenState: Hashable where Content: Hashable {}
