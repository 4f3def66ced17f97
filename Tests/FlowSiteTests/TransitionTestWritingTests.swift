import Foundation
import Testing

@testable import FlowSite
@testable import FlowSiteTesting

/// The tests `lint --write-tests` writes for the transitions no test takes. The forum's are committed beside it
/// (`Forum/ForumUntestedTransitionTests.swift`, a suite without `.flowCoverage()`), so they compile and pass in every
/// run of this target; here they are written again and must be the same bytes, and, run under a coverage recorder,
/// they take exactly the transitions they were written for.
@Suite struct TransitionTestWritingTests {
    static let committed = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Forum/ForumUntestedTransitionTests.swift")

    /// What the forum's tests take already: a question from the feed.
    static let coverage = FlowGraph.Coverage([.init(from: "feed", to: "question", presentation: .push)])

    static let options = TransitionTestOptions(suite: "ForumUntestedTransitionTests", module: "FlowSiteTests")

    @Test func theForumsTestsAreTheCommittedOnes() async throws {
        let (lint, tests) = try await FlowLinter(coordinator: ForumApp(), coverage: Self.coverage)
            .runWritingTests(Self.options)
        if ProcessInfo.processInfo.environment["SNAPSHOT_TESTING_RECORD"] == "all" {
            try Data(tests.utf8).write(to: Self.committed, options: .atomic)
        }
        let committed = try String(contentsOf: Self.committed, encoding: .utf8)
        #expect(
            tests == committed,
            "the forum's tests changed: record them again with SNAPSHOT_TESTING_RECORD=all and review the file")
        let untested = lint.coverage?.reduce(0) { $0 + $1.untested.count } ?? 0
        #expect(untested > 0 && tests.components(separatedBy: "    @Test func ").count - 1 == untested)
        // The default coordinator is its type's init(); the tests' own module is not imported.
        #expect(tests.contains("        let app = ForumApp()\n") && !tests.contains("import FlowSiteTests"))
        // A tab is selected in the tab bar, from the start page; the sign-in dialog is expected as a dialog.
        #expect(tests.contains(#"navigator.selectTab(NavigationAction("Sign in", to: target), on: app)"#))
        #expect(tests.contains("#expect(navigator.shown == [.init(target, .modal)])"))
        #expect(!tests.contains("fromFeedToQuestion()"), "feed → question is tested already")
    }

    /// Pasted into a suite with `.flowCoverage()`, the tests take every transition they were written for.
    @Test func theWrittenTestsTakeTheTransitionsTheyAreFor() async throws {
        let recorder = FlowCoverageRecorder()
        FlowCoverageRecorder.$current.withValue(recorder) {
            let suite = ForumUntestedTransitionTests()
            suite.fromTabBarToFeed()
            suite.fromTabBarToSignIn()
            suite.fromQuestionToSignIn()
            suite.fromQuestionToUser()
            suite.fromQuestionToTag()
            suite.fromSignInToFeed()
            suite.fromUserToQuestion()
            suite.fromUserToFollowers()
            suite.fromTagToQuestion()
            suite.fromFollowersToUser()
        }
        let taken = FlowGraph.Coverage(recorder.transitions)
        let before = try await FlowLinter(coordinator: ForumApp(), coverage: Self.coverage).run()
        let after = try await FlowLinter(coordinator: ForumApp(), coverage: Self.coverage.merging(taken)).run()
        #expect(before.coverage?.allSatisfy(\.untested.isEmpty) == false)
        #expect(after.coverage?.allSatisfy(\.untested.isEmpty) == true, "\(after.text())")
        #expect(taken.stale(in: try await FlowLinter(coordinator: ForumApp()).walk().graph).isEmpty)
    }

    /// Routes are written from their mirror, never their description: an enum case with its labels, a struct by
    /// its memberwise initialiser, text escaped so that it stays one line and shows what it holds.
    @Test func aRouteIsWrittenAsTheSwiftThatMakesIt() throws {
        enum Kind { case people }
        enum Inner: Hashable { case list(page: Int), detail(id: Int, slug: Slug), note(String?) }
        enum Outer: CustomStringConvertible {
            case home, resources(Kind, Inner), tagged(Set<String>), `default`, place(Place), at(UUID)
            var description: String { "for people" }
        }
        struct Place { var x: Int, names: [String: Double] }
        func written(_ value: Any) throws -> String {
            var needs = SwiftSource.Needs()
            return try SwiftSource.expression(of: value, needs: &needs)
        }
        #expect(try written(Outer.home) == ".home")
        #expect(try written(Outer.resources(.people, .list(page: 2))) == ".resources(.people, .list(page: 2))")
        #expect(
            try written(Inner.detail(id: 1, slug: "luke-skywalker")) == #".detail(id: 1, slug: "luke-skywalker")"#)
        #expect(try written(Inner.note(nil)) == ".note(nil)")
        #expect(try written(Inner.note("a \"b\"\\\n\u{202E}")) == #".note("a \"b\"\\\n\u{202E}")"#)
        #expect(try written(Outer.tagged(["b", "a", "c"])) == #".tagged(["a", "b", "c"])"#)
        #expect(try written(Outer.default) == ".`default`")
        #expect(
            try written(Outer.place(Place(x: 1, names: ["b": 2, "a": 1.5])))
                == #".place(.init(x: 1, names: ["a": 1.5, "b": 2.0]))"#)
        var needs = SwiftSource.Needs()
        let id = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
        #expect(
            try SwiftSource.expression(of: Outer.at(id), needs: &needs)
                == #".at(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!)"#)
        #expect(needs.contains(.foundation))
    }

    @Test func aValueThatIsNoSwiftSaysWhy() {
        final class Box: Sendable {}
        enum Route { case box(Box), far(Double) }
        var needs = SwiftSource.Needs()
        #expect(throws: SwiftSource.Unwritable.self) { try SwiftSource.expression(of: Route.box(Box()), needs: &needs) }
        #expect(throws: SwiftSource.Unwritable(reason: "inf is no literal")) {
            try SwiftSource.expression(of: Route.far(.infinity), needs: &needs)
        }
    }

    /// Any kind's name gives an identifier of ASCII letters and digits, and no two tests share one.
    @Test(arguments: [
        ["Café · Menü", "Café Menu"], ["💥", "🧨"], ["", " "], ["\u{202E}evil\n@Test func x()", "Evil"],
        ["123", "class"], ["Владимир", "Vladimir"]
    ])
    func hostileKindNamesGiveValidUniqueNames(names: [String]) {
        let transitions = names.map { (from: $0, to: $0, presentation: Presentation.push) }
        let made = TestNames.make(for: transitions + transitions)
        #expect(Set(made).count == made.count, "\(made)")
        for name in made {
            #expect(name.wholeMatch(of: /from[A-Z0-9][A-Za-z0-9]*To[A-Z0-9][A-Za-z0-9]*/) != nil, "\(name)")
        }
    }

    /// A route that can't be Swift gets a comment saying why and what to test by hand, not broken code; a kind's
    /// name can't end the comment's line.
    @Test func aRouteThatIsNoSwiftGetsACommentInsteadOfATest() async throws {
        let (_, tests) = try await FlowLinter(coordinator: BoxApp(), coverage: FlowGraph.Coverage([]))
            .runWritingTests(TransitionTestOptions(coordinator: "try await BoxApp.make()"))
        // Inside the suite, only comments: the kind's line break is written out, and no test is made.
        let body = try #require(tests.components(separatedBy: "@Suite struct UntestedTransitionTests {\n").last)
        #expect(body.split(separator: "\n").dropLast().allSatisfy { $0.hasPrefix("    // ") }, "\(tests)")
        #expect(
            body.contains(
                """
                    // No test: the route of /box/ (box(FlowSiteTests.BoxRoute.Box)) can't be written as Swift, as
                    // FlowSiteTests.BoxRoute.Box is a class. By hand: start on /, follow "Open" and expect /box/ \
                shown as .push.
                """), "\(tests)")
        #expect(tests.contains(#"Start\u{A}@Test func evil() {} → Box"#), "\(tests)")
        #expect(tests.contains("@testable import FlowSiteTests\n"))
    }

    @Test func aCoordinatorMadeWithTryAwaitMakesTheTestsAsyncThrowing() async throws {
        let (_, tests) = try await FlowLinter(coordinator: ForumApp(), coverage: Self.coverage)
            .runWritingTests(TransitionTestOptions(coordinator: "try await ForumApp.make()", module: "FlowSiteTests"))
        #expect(
            tests.contains(
                "@Test func fromTabBarToFeed() async throws {\n        let app = try await ForumApp.make()\n"))
        #expect(tests.contains("@Suite struct UntestedTransitionTests {"))
    }

    @Test func suiteNamesAreIdentifiers() {
        #expect(TransitionTestOptions.isIdentifier("UntestedTransitionTests"))
        for name in ["", "1Tests", "my-tests", "class", "Tésts"] { #expect(!TransitionTestOptions.isIdentifier(name)) }
    }
}

/// A route whose payload is a class: no Swift makes it.
enum BoxRoute: Route {
    final class Box: Hashable, Sendable {
        static func == (a: Box, b: Box) -> Bool { true }
        func hash(into hasher: inout Hasher) {}
    }

    case start, box(Box)

    var path: RoutePath { self == .start ? .root : ["box"] }
    var screenKind: ScreenKind {
        self == .start ? ScreenKind("start", name: "Start\n@Test func evil() {}") : ScreenKind("box", name: "Box")
    }
}

struct BoxApp: RootCoordinator {
    var startRoute: BoxRoute { .start }
    var siteInfo: SiteInfo<BoxRoute> { SiteInfo(name: "Boxes") }
    func makeScreen(for route: BoxRoute) async throws -> any Screen<BoxRoute> {
        var document = MarkdownDocument<BoxRoute>()
        if route == .start { document.paragraph(.link("Open", to: .box(BoxRoute.Box()))) }
        return BoxScreen(page: Page(title: "Box", document: document))
    }
    func presentation(of route: BoxRoute, from source: BoxRoute) -> Presentation { .push }
}

struct BoxScreen: Screen {
    let page: Page<BoxRoute>
    func makePage() async throws -> Page<BoxRoute> { page }
}

extension ForumApp {
    /// As an app whose coordinator loads first would make it.
    static func make() async throws -> ForumApp { ForumApp() }
}
