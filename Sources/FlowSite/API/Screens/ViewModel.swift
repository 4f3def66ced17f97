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
    /// Loaded, but there is nothing to show; the message says so in the screen's words.
    case empty(String)
    /// Loading failed; the message is meant for the reader.
    case error(String)

    /// The loaded content, if any.
    public var content: Content? {
        if case .loaded(let content) = self { content } else { nil }
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
