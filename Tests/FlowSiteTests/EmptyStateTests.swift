import FlowSite
import Foundation
import Testing

/// A people app: each person's followers are a list that can be empty, following someone ends
/// on a confirmation, and one page is a true dead end.
enum People: Route {
    case home, followers(String), followed(String), notes

    var path: RoutePath {
        switch self {
        case .home: .root
        case .followers(let name): ["followers", Slug(name)]
        case .followed(let name): ["followed", Slug(name)]
        case .notes: ["notes"]
        }
    }

    static var screenKindExamples: [People] { [.home, .followers("a"), .followed("a"), .notes] }
}

struct FollowersViewModel: ViewModel {
    let followers: [String]
    func load() async -> ScreenState<[String]> { followers.isEmpty ? .empty("No followers yet.") : .loaded(followers) }
}

struct FollowersScreen: StatefulScreen {
    typealias R = People
    let name: String
    let viewModel: FollowersViewModel

    func page(for state: ScreenState<[String]>) -> Page<People> {
        var document = MarkdownDocument<People>()
        switch state {
        case .loaded(let names): document.list(names.map { [.link($0, to: .followers($0))] })
        case .empty(let empty): document.emptyState(empty)
        case .error(let message): document.paragraph(.text(message))
        case .loading: document.paragraph("Loading…")
        }
        return Page(title: "\(name)'s followers", document: document)
    }
}

struct PeopleApp: RootCoordinator {
    /// Who follows whom; a name missing here has no followers.
    let following = ["ann": ["bob", "cy"], "bob": ["ann"]]
    var flowLint = FlowLintConfiguration()

    var startRoute: People { .home }
    var siteInfo: SiteInfo<People> { SiteInfo(name: "People") }

    func makeScreen(for route: People) async throws -> any Screen<People> {
        switch route {
        case .home:
            return FixedScreen(
                page: Page(title: "People", document: links([("Ann", .followers("ann")), ("Notes", .notes)])))
        case .followers(let name):
            return FollowersScreen(name: name, viewModel: FollowersViewModel(followers: following[name] ?? []))
        case .followed(let name):
            var page = Page(title: "You follow \(name)", document: MarkdownDocument<People>())
            page.ending = .intended
            return FixedScreen(page: page)
        case .notes:
            return FixedScreen(page: Page(title: "Notes", document: links([("Follow Ann", .followed("ann"))])))
        }
    }

    private func links(_ links: [(String, People)]) -> MarkdownDocument<People> {
        var document = MarkdownDocument<People>()
        document.list(links.map { [.link($0.0, to: $0.1)] })
        return document
    }
}

struct FixedScreen: Screen {
    let page: Page<People>
    func makePage() async throws -> Page<People> { page }
}

@Suite struct EmptyStateTests {
    @Test func anEmptyStateIsMarkedByTheStatefulScreen() async throws {
        let empty = try await FollowersScreen(name: "cy", viewModel: FollowersViewModel(followers: [])).makePage()
        #expect(empty.ending == .emptyState)
        let loaded = try await FollowersScreen(name: "ann", viewModel: FollowersViewModel(followers: ["bob"]))
            .makePage()
        #expect(loaded.ending == nil)
        #expect(ScreenState<Int>.empty("none").isEmpty)
        #expect(!ScreenState<Int>.loaded(1).isEmpty)
    }

    @Test func emptyStatesAndIntendedEndsAreNotDeadEnds() async throws {
        let report = try await FlowLinter(coordinator: PeopleApp()).run()
        // cy's followers are empty and the follow confirmation ends on purpose: neither is a dead end.
        #expect(!report.findings.contains { $0.rule == .deadEnd })
        #expect(!report.findings.contains { $0.rule == .emptyState }, "empty-state is off by default")
    }

    @Test func theEmptyStateRuleReportsEmptyPagesWhenTurnedOn() async throws {
        var app = PeopleApp()
        app.flowLint.enabledRules = ["empty-state"]
        let report = try await FlowLinter(coordinator: app).run()
        let empty = try #require(report.findings.first { $0.rule == .emptyState })
        #expect(empty.kind?.id == "followers")
        #expect(empty.count == 1)
        #expect(empty.examples.map(\.path.description) == ["/followers/cy/"])
        #expect(FlowLintRule.emptyState.level == .note)
        #expect(!report.findings.contains { $0.rule == .deadEnd })
    }

    @Test func aLoadedPageWithNoWayOnIsStillADeadEnd() async throws {
        struct Unmarked: RootCoordinator {
            var startRoute: People { .home }
            var siteInfo: SiteInfo<People> { SiteInfo(name: "People") }
            func makeScreen(for route: People) async throws -> any Screen<People> {
                var document = MarkdownDocument<People>()
                if route == .home { document.paragraph(.link("Ann", to: .followed("ann"))) }
                return FixedScreen(page: Page(title: "\(route)", document: document))
            }
        }
        let report = try await FlowLinter(coordinator: Unmarked()).run()
        let dead = try #require(report.findings.first { $0.rule == .deadEnd })
        #expect(dead.examples.map(\.path.description) == ["/followed/ann/"])
    }
}

/// An empty state has a title of its own, and the snapshot says a page ends only when it has no way on
/// (issue 63, item 4).
@Suite struct EmptyStateWordsTests {
    @Test func anEmptyStateShowsItsTitleAsAHeadingAndItsMessage() async throws {
        var document = MarkdownDocument<People>()
        document.emptyState(EmptyState(title: "No followers yet", message: "Share your profile."))
        document.emptyState("Nothing here.")
        let page = Page(title: "Followers", document: document)
        let markdown = page.document.markdown(linking: { _ in "" }, siteFile: { $0 })
        #expect(markdown.contains("## No followers yet\n\nShare your profile."), "\(markdown)")
        #expect(markdown.contains("Nothing here."))
        #expect(markdown.components(separatedBy: "## ").count == 2, "a message alone has no heading")
        let literal: ScreenState<Int> = .empty("none")
        #expect(literal == .empty(EmptyState(message: "none")))
    }
}

/// A suppression that leaves out nothing is a finding of its own (issue 63, item 7).
@Suite struct UnusedSuppressionTests {
    @Test func aStaleSuppressionIsReportedAndAUsedOneIsNot() async throws {
        var app = PeopleApp()
        app.flowLint = FlowLintConfiguration(
            enabledRules: ["empty-state"],
            suppressions: [
                // cy's followers are empty: used.
                .init(rule: "empty-state", page: "followers/cy", reason: "cy is new"),
                // Notes leads on: a dead-end suppression for it is stale.
                .init(rule: "dead-end", kind: "notes", reason: "Notes has no links yet"),
                .init(rule: "dead-end", page: "/nowhere/", reason: "a page that went away")
            ])
        let report = try await FlowLinter(coordinator: app).run()
        let unused = report.findings.filter { $0.rule == .unusedSuppression }.map(\.message)
        #expect(
            unused == [
                "The suppression of dead-end for the kind notes (“Notes has no links yet”) leaves out no finding: "
                    + "remove it or correct it",
                "The suppression of dead-end for the page /nowhere/ (“a page that went away”) leaves out no finding: "
                    + "remove it or correct it"
            ], "\(unused)")
        #expect(FlowLintRule.unusedSuppression.level == .warning && FlowLintRule.unusedSuppression.isOnByDefault)
    }
}
