import FlowSite
import Foundation

/// A question-and-answer forum written the MVVM-C way, as a real app is: a tab bar that differs
/// for guests and signed-in readers, a sign-in screen that is a guest's tab and a dialog over a
/// question, followers lists that can be empty, questions whose bodies are their authors'
/// Markdown with code, a confirmation that ends a flow, and deep links routed by the app's parser.
enum ForumRoute: Route {
    case feed, question(Int), tag(String), user(String), followers(String), signIn, profile, answered(Int)

    var path: RoutePath {
        switch self {
        case .feed: .root
        case .question(let id): ["questions", Slug("\(id)")]
        case .tag(let name): ["tags", Slug(name)]
        case .user(let name): ["users", Slug(name)]
        case .followers(let name): ["users", Slug(name), "followers"]
        case .signIn: ["sign-in"]
        case .profile: ["me"]
        case .answered(let id): ["questions", Slug("\(id)"), "answered"]
        }
    }

    static var screenKindExamples: [ForumRoute] {
        [.feed, .question(1), .tag("swift"), .user("ada"), .followers("ada"), .signIn, .profile, .answered(1)]
    }
}

/// The data, as a service of closures would give it.
struct ForumData: Sendable {
    struct Question: Sendable {
        var id: Int, title: String, author: String, tags: [String], body: String
    }

    var questions: [Question]
    var followers: [String: [String]]

    static let sample = ForumData(
        questions: [
            Question(
                id: 1, title: "Why does my loop never end?", author: "ada", tags: ["swift"],
                body:
                    """
                    # The code\n\n```swift\nwhile true {\n    tick()\n}\n```\n\n\
                    It <b>never</b> stops. See [the book](https://docs.swift.org).
                    """
            ),
            Question(
                id: 2, title: "Tabs or spaces?", author: "grace", tags: ["style", "swift"],
                body:
                    """
                    Indented:\n\n    let a = 1\n\tlet b = 2\n\nTry <script>alert(1)</script>[click](javascript:alert(1))
                    """
            )
        ],
        followers: ["ada": ["grace"], "grace": []]
    )
}

/// Who is reading: the tab bar and the actions depend on it.
enum Session: Sendable {
    case guest, signedIn(String)
}

/// A screen of fixed content, as the factory makes it from the view model's state.
struct ForumScreen: Screen {
    let page: Page<ForumRoute>
    func makePage() async throws -> Page<ForumRoute> { page }
}

struct ForumFollowersViewModel: ViewModel {
    let names: [String]
    func load() async -> ScreenState<[String]> { names.isEmpty ? .empty("No followers yet.") : .loaded(names) }
}

struct ForumFollowersScreen: StatefulScreen {
    typealias R = ForumRoute
    let user: String
    let viewModel: ForumFollowersViewModel

    func page(for state: ScreenState<[String]>) -> Page<ForumRoute> {
        var document = MarkdownDocument<ForumRoute>()
        switch state {
        case .loaded(let names): document.list(names.map { [.link($0, to: .user($0))] })
        case .empty(let empty): document.emptyState(empty)
        case .error(let message): document.paragraph(.text(message))
        case .loading: document.paragraph("Loading…")
        }
        return Page(title: "\(user)'s followers", document: document)
    }
}

struct ForumApp: RootCoordinator {
    var data = ForumData.sample
    var session = Session.guest
    var flowLint = FlowLintConfiguration()
    /// What a question's link to sign-in says, for the review of a renamed label.
    var signInLabel = "Sign in to answer"
    /// Whether each configuration declares only the screens it can show (else every kind).
    var declaresItsOwnScreens = true

    var declaredScreens: [ForumRoute] {
        guard declaresItsOwnScreens else { return ForumRoute.screenKindExamples }
        return ForumRoute.screenKindExamples.filter { route in
            switch (session, route) {
            case (.guest, .profile), (.guest, .answered), (.signedIn, .signIn): false
            default: true
            }
        }
    }

    var startRoute: ForumRoute { .feed }

    var siteInfo: SiteInfo<ForumRoute> {
        switch session {
        case .guest: SiteInfo(name: "Forum", navigation: [.init("Feed", to: .feed), .init("Sign in", to: .signIn)])
        case .signedIn: SiteInfo(name: "Forum", navigation: [.init("Feed", to: .feed), .init("Profile", to: .profile)])
        }
    }

    func makeScreen(for route: ForumRoute) async throws -> any Screen<ForumRoute> {
        var document = MarkdownDocument<ForumRoute>()
        switch route {
        case .feed:
            document.list(data.questions.map { [.link($0.title, to: .question($0.id))] })
            return ForumScreen(page: Page(title: "Questions", document: document))
        case .question(let id):
            let question = data.questions.first { $0.id == id }!
            document.paragraph("Asked by ", .link(question.author, to: .user(question.author)))
            document.list(question.tags.map { [.link("#" + $0, to: .tag($0))] })
            document.heading("Question")
            document.userContent(question.body)
            switch session {
            case .guest: document.paragraph(.link(signInLabel, to: .signIn))
            case .signedIn: document.paragraph(.link("Post an answer", to: .answered(id)))
            }
            return ForumScreen(page: Page(title: question.title, document: document))
        case .tag(let name):
            document.list(
                data.questions.filter { $0.tags.contains(name) }.map { [.link($0.title, to: .question($0.id))] })
            return ForumScreen(page: Page(title: "#" + name, document: document))
        case .user(let name):
            document.paragraph(.link("Followers", to: .followers(name)))
            document.list(data.questions.filter { $0.author == name }.map { [.link($0.title, to: .question($0.id))] })
            return ForumScreen(page: Page(title: name, document: document))
        case .followers(let name):
            return ForumFollowersScreen(
                user: name, viewModel: ForumFollowersViewModel(names: data.followers[name] ?? []))
        case .signIn:
            document.paragraph("Sign in with your forum account to ask and answer.")
            document.paragraph(.link("Back to the questions", to: .feed))
            return ForumScreen(page: Page(title: "Sign in", document: document))
        case .profile:
            if case .signedIn(let name) = session { document.paragraph(.link("Your questions", to: .user(name))) }
            return ForumScreen(page: Page(title: "Your profile", document: document))
        case .answered:
            var page = Page(title: "Thanks for your answer", document: document)
            page.ending = .intended
            return ForumScreen(page: page)
        }
    }

    /// In-page links: sign-in is a dialog over the page that asked for it; the feed is a root.
    func navigate(
        _ action: NavigationAction<ForumRoute>, from source: ForumRoute, in navigator: some Navigator<ForumRoute>
    ) {
        switch action.route {
        case .signIn: navigator.show(.signIn, as: .modal)
        case .feed: navigator.show(.feed, as: .root)
        default: navigator.show(action.route, as: .push)
        }
    }

    var deepLinks: DeepLinks<ForumRoute>? {
        DeepLinks(link: ForumLinks.link(to:), route: ForumLinks.route(for:))
    }
}

/// The forum's deep links: `forum://questions/1`, `forum://tags/swift`, `forum://users/ada`.
enum ForumLinks {
    static func link(to route: ForumRoute) -> URL? {
        switch route {
        case .feed: URL(string: "forum://feed")
        case .question(let id): URL(string: "forum://questions/\(id)")
        case .tag(let name): URL(string: "forum://tags/\(name)")
        case .user(let name): URL(string: "forum://users/\(name)")
        case .followers, .signIn, .profile, .answered: nil
        }
    }

    static func route(for url: URL) -> ForumRoute? {
        let parts = url.pathComponents.filter { $0 != "/" }
        switch (url.host, parts.count) {
        case ("feed", 0): return .feed
        case ("questions", 1): return Int(parts[0]).map { .question($0) }
        case ("tags", 1): return .tag(parts[0])
        case ("users", 1): return .user(parts[0])
        default: return nil
        }
    }
}
