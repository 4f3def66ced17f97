import FlowSite
import Foundation

/// Every screen of a library app. The root owns Home; a Catalog child owns the books, an Account child the rest.
enum AppRoute: Route {
    case home, books, book(Int), account, loans, signIn
    var path: RoutePath {
        switch self {
        case .home: .root
        case .books: ["books"]
        case .book(let id): ["books", Slug("\(id)")]
        case .account: ["account"]
        case .loans: ["account", "loans"]
        case .signIn: ["sign-in"]
        }
    }
    static var screenKindExamples: [AppRoute] { [.home, .books, .book(1), .account, .loans, .signIn] }
}

struct Book: Sendable { var id: Int, title: String, sequel: Int? = nil }

/// Services as structs of closures, each granted by a `Has…` protocol; the site is built with the mocks.
struct CatalogService: Sendable {
    var books: @Sendable () async throws -> [Book]
    static let mock = CatalogService {
        [Book(id: 1, title: "A Wizard of Earthsea", sequel: 2), Book(id: 2, title: "The Tombs of Atuan")]
    }
}
struct LoanService: Sendable {
    var bookIDs: @Sendable () async throws -> Set<Int>
    static let mock = LoanService { [2] }
}
protocol HasCatalogService { var catalog: CatalogService { get } }
protocol HasLoanService { var loans: LoanService { get } }
struct Dependencies: HasCatalogService, HasLoanService, Sendable { var catalog: CatalogService, loans: LoanService }

/// Each view model declares the services it uses; a failure becomes a state.
struct BooksViewModel: ViewModel {
    let dependencies: any HasCatalogService & Sendable
    func load() async -> ScreenState<[Book]> {
        do { return .loaded(try await dependencies.catalog.books()) } catch { return .error("No books today.") }
    }
}
struct BookViewModel: ViewModel {
    let id: Int, dependencies: any HasCatalogService & Sendable
    func load() async -> ScreenState<Book> {
        do {
            let book = try await dependencies.catalog.books().first { $0.id == id }
            return book.map { .loaded($0) } ?? .error("There is no such book.")
        } catch { return .error("This book can't be shown right now.") }
    }
}
struct LoansViewModel: ViewModel {
    let dependencies: any HasCatalogService & HasLoanService & Sendable
    func load() async -> ScreenState<[Book]> {
        do {
            let ids = try await dependencies.loans.bookIDs()
            return .loaded(try await dependencies.catalog.books().filter { ids.contains($0.id) })
        } catch { return .error("Your loans can't be shown right now.") }
    }
}

/// The screens render each state to Markdown; their links are their navigation actions.
struct BookListScreen<Model: ViewModel<ScreenState<[Book]>>>: StatefulScreen {
    typealias R = AppRoute
    let title: String, viewModel: Model
    func page(for state: ScreenState<[Book]>) -> Page<AppRoute> {
        var document = MarkdownDocument<AppRoute>()
        switch state {
        case .loaded(let books): document.linkList(books) { ($0.title, .book($0.id)) }
        case .empty(let empty): document.emptyState(empty)
        case .error(let message): document.paragraph(.text(message))
        case .loading: break
        }
        return Page(title: title, document: document)
    }
}
struct BookScreen: StatefulScreen {
    typealias R = AppRoute
    let viewModel: BookViewModel
    func page(for state: ScreenState<Book>) -> Page<AppRoute> {
        var document = MarkdownDocument<AppRoute>()
        guard case .loaded(let book) = state else { return Page(title: "Book", document: document) }
        if let sequel = book.sequel { document.paragraph(.link("Read the sequel", to: .book(sequel))) }
        document.paragraph(.link("Sign in to borrow it", to: .signIn))
        return Page(title: book.title, document: document)
    }
}
struct LinksScreen: Screen {
    let title: String, text: String, links: [(String, AppRoute)]
    func makePage() async throws -> Page<AppRoute> {
        var document = MarkdownDocument<AppRoute>()
        document.paragraph(.text(text))
        document.list(links.map { [.link($0.0, to: $0.1)] })
        return Page(title: title, document: document)
    }
}

/// Owns the book list and the books: a book is pushed, and a sequel takes its book's place.
struct CatalogCoordinator: Coordinator {
    let dependencies: any HasCatalogService & Sendable
    func makeScreen(for route: AppRoute) async throws -> any Screen<AppRoute> {
        switch route {
        case .books: BookListScreen(title: "Books", viewModel: BooksViewModel(dependencies: dependencies))
        case .book(let id): BookScreen(viewModel: BookViewModel(id: id, dependencies: dependencies))
        default: throw FlowSiteError.notOwned(route, by: self)
        }
    }
    func navigate(_ action: NavigationAction<AppRoute>, from source: AppRoute, in navigator: some Navigator<AppRoute>) {
        switch (source, action.route) {
        case (.book, .book): navigator.show(action.route, as: .replace)
        default: navigator.show(action.route, as: .push)
        }
    }
}

/// Owns the account page, the loans, and sign-in, which is a dialog wherever it comes from.
struct AccountCoordinator: Coordinator {
    let dependencies: any HasCatalogService & HasLoanService & Sendable
    func makeScreen(for route: AppRoute) async throws -> any Screen<AppRoute> {
        switch route {
        case .account:
            LinksScreen(title: "Account", text: "Your card.", links: [("Your loans", .loans), ("Sign in", .signIn)])
        case .loans: BookListScreen(title: "Loans", viewModel: LoansViewModel(dependencies: dependencies))
        case .signIn: LinksScreen(title: "Sign in", text: "Sign in with your library card.", links: [])
        default: throw FlowSiteError.notOwned(route, by: self)
        }
    }
    func navigate(_ action: NavigationAction<AppRoute>, from source: AppRoute, in navigator: some Navigator<AppRoute>) {
        navigator.show(action.route, as: action.route == .signIn ? .modal : .push)
    }
}

/// Owns Home, and hands every other route to the child that owns it.
struct LibraryCoordinator: RootCoordinator {
    let catalog: CatalogCoordinator, account: AccountCoordinator
    var startRoute: AppRoute { .home }
    var siteInfo: SiteInfo<AppRoute> { SiteInfo(name: "City Library", footer: "Open every day.") }
    /// The child that owns `route`, or `nil` for Home: a new route doesn't compile until it has an owner.
    func child(owning route: AppRoute) -> (any Coordinator<AppRoute>)? {
        switch route {
        case .home: nil
        case .books, .book: catalog
        case .account, .loans, .signIn: account
        }
    }
    func makeScreen(for route: AppRoute) async throws -> any Screen<AppRoute> {
        if let child = child(owning: route) { return try await child.makeScreen(for: route) }
        return LinksScreen(title: "City Library", text: "Welcome.", links: [("Books", .books), ("Account", .account)])
    }
    /// A path readers take, taken on every build: a step that breaks is a warning and a `journey-broken` finding.
    var journeys: [Journey<AppRoute>] {
        let borrow: [Journey<AppRoute>.Step] = [
            .follow("Books"), .follow(to: .book(1)), .follow("Read the sequel", as: .replace),
            .follow("Sign in to borrow it", as: .modal, title: "Sign in")
        ]
        return [Journey("Borrow a sequel", from: .home, steps: borrow)]
    }
    func navigate(_ action: NavigationAction<AppRoute>, from source: AppRoute, in navigator: some Navigator<AppRoute>) {
        guard let child = child(owning: action.route) else { return navigator.show(action.route, as: .root) }
        child.navigate(action, from: source, in: navigator) // by the target: its owner decides how it is presented
    }
}

let output = URL(fileURLWithPath: CommandLine.arguments.dropFirst().first ?? "library-site")
let dependencies = Dependencies(catalog: .mock, loans: .mock)
let app = LibraryCoordinator(
    catalog: CatalogCoordinator(dependencies: dependencies), account: AccountCoordinator(dependencies: dependencies))
let report = try await SiteBuilder(coordinator: app).build(into: output) // with its flow map at flow/
print(report, report.flowLint?.text() ?? "", separator: "\n", terminator: "")
