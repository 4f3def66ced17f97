import FlowSiteTesting
import Foundation
import Testing

@testable import FlowSite

/// The forum's site, map and lint say what the app does, in each of its two configurations.
@Suite struct ForumAppTests {
    struct Built {
        let folder: URL
        let report: BuildReport
        func page(_ path: String) throws -> String {
            try String(contentsOf: folder.appendingPathComponent(path + "index.html"), encoding: .utf8)
        }
    }

    func build(_ app: ForumApp) async throws -> Built {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("forum-\(UUID().uuidString)")
        return Built(folder: folder, report: try await SiteBuilder(coordinator: app).build(into: folder))
    }

    func remove(_ built: Built) { try? FileManager.default.removeItem(at: built.folder) }

    @Test func eachConfigurationHasItsOwnTabBar() async throws {
        let guest = try await build(ForumApp(session: .guest))
        defer { remove(guest) }
        let signedIn = try await build(ForumApp(session: .signedIn("ada")))
        defer { remove(signedIn) }
        let guestNav = try #require(try guest.page("").between("<nav aria-label=\"Main\">", "</nav>"))
        #expect(guestNav.contains(">Feed<") && guestNav.contains(">Sign in<") && !guestNav.contains("Profile"))
        let signedInNav = try #require(try signedIn.page("").between("<nav aria-label=\"Main\">", "</nav>"))
        #expect(signedInNav.contains(">Profile<") && !signedInNav.contains("Sign in"))
        // The tabs are drawn once, from the tab bar, on each configuration's map.
        #expect(try guest.page("flow/").contains(">Tab bar<"))
        #expect(guest.report.flow?.transitions.filter { $0.tabSelections > 0 }.count == 2)
    }

    @Test func signInIsAGuestsTabAndADialogOverAQuestion() async throws {
        let guest = try await build(ForumApp(session: .guest))
        defer { remove(guest) }
        let flow = try #require(guest.report.flow)
        let signIn = ScreenKind(derivedFrom: ForumRoute.signIn).id
        let into = flow.transitions.filter { $0.to == signIn }
        #expect(into.contains { $0.presentation == .root && $0.tabSelections == 1 })
        #expect(
            into.contains { $0.presentation == .modal && $0.from == ScreenKind(derivedFrom: ForumRoute.question(1)).id }
        )
        // The tab's page is the tab root: the tab bar, no Close.
        let tab = try guest.page("sign-in/")
        #expect(tab.contains("<nav aria-label=\"Main\">") && !tab.contains("class=\"close\""))
        // The dialog is a page of its own: Close back to the question, no tab bar, not indexed.
        let dialog = try guest.page("sign-in/dialog/")
        #expect(!dialog.contains("<nav aria-label=\"Main\">"))
        #expect(
            dialog.contains("href=\"../../questions/1/index.html\"")
                && dialog.contains("Close: back to the page you came from, or else to Why does my loop never end?"))
        #expect(dialog.contains("<meta name=\"robots\" content=\"noindex\">"))
        // Each question's link opens the dialog; the tab bar's opens the tab.
        let question = try guest.page("questions/2/")
        #expect(
            question.contains(
                "<a href=\"../../sign-in/dialog/index.html\" class=\"opens-dialog\">Sign in to answer"
                    + "<span class=\"link-note\"> (opens a dialog)</span></a>"))
        #expect(try guest.page("").contains("href=\"sign-in/index.html\""))
        // The map counts both pages of the kind, and draws both ways in.
        #expect(flow.kind(signIn)?.pages == 2)
    }

    @Test func theSameDataGivesTheSameBreadcrumbsWhateverTheOrderPagesFinishIn() async throws {
        var pages: [[String: Data]] = []
        for concurrency in [1, 16] {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("forum-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: folder) }
            var builder = SiteBuilder(coordinator: ForumApp(session: .guest))
            builder.concurrency = concurrency
            _ = try await builder.build(into: folder)
            var files: [String: Data] = [:]
            let enumerator = try #require(FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil))
            for case let url as URL in enumerator where url.lastPathComponent == "index.html" {
                files[url.path.replacingOccurrences(of: folder.path, with: "")] = try Data(contentsOf: url)
            }
            pages.append(files)
        }
        #expect(pages[0].count > 10)
        #expect(pages[0] == pages[1])
        // A question's trail is the shortest way in: the feed, then the question.
        let question = String(decoding: try #require(pages[0]["/questions/2/index.html"]), as: UTF8.self)
        let trail = try #require(question.between("<nav aria-label=\"Breadcrumb\"", "</nav>"))
        #expect(trail.contains(">Questions</a>") && !trail.contains("#"))
    }

    @Test func questionBodiesShowTheirCodeAndNothingElse() async throws {
        let guest = try await build(ForumApp(session: .guest))
        defer { remove(guest) }
        let first = try guest.page("questions/1/")
        #expect(
            first.contains("<h2>Question</h2>\n<div class=\"user-content\">")
                || first.contains("<section class=\"user-content\">\n<h3>The code</h3>"))
        #expect(first.contains("<h3>The code</h3>"))
        #expect(first.contains("<pre><code class=\"language-swift\">while true {\n    tick()\n}\n</code></pre>"))
        #expect(
            first.contains(
                "<p>It never stops. See <a rel=\"nofollow ugc\" href=\"https://docs.swift.org\" class=\"external\">"
                    + "the book<span class=\"link-note\"> (leaves the site)</span></a>.</p>"))
        let second = try guest.page("questions/2/")
        #expect(second.contains("<pre><code>let a = 1\nlet b = 2\n</code></pre>"))
        #expect(!second.contains("<script>") && !second.contains("javascript:"))
        #expect(second.contains("<p>Try alert(1)click</p>"))
    }

    @Test func anEmptyFollowersListIsAnEmptyStateNotADeadEnd() async throws {
        let guest = try await build(ForumApp(session: .guest))
        defer { remove(guest) }
        #expect(try guest.page("users/grace/followers/").contains("No followers yet."))
        let lint = try #require(guest.report.flowLint)
        #expect(!lint.findings.contains { $0.rule == .deadEnd })
        var app = ForumApp(session: .guest)
        app.flowLint.enabledRules = ["empty-state"]
        let report = try await FlowLinter(coordinator: app).run()
        let empty = try #require(report.findings.first { $0.rule == .emptyState })
        #expect(empty.examples.map(\.path.description) == ["/users/grace/followers/"])
    }

    @Test func aConfirmationEndsTheSignedInFlowOnPurpose() async throws {
        let signedIn = try await build(ForumApp(session: .signedIn("ada")))
        defer { remove(signedIn) }
        #expect(try signedIn.page("questions/1/answered/").contains("Thanks for your answer"))
        let lint = try #require(signedIn.report.flowLint)
        #expect(!lint.findings.contains { $0.rule == .deadEnd })
        // Each configuration declares the screens it shows: the guests' sign-in is no finding.
        #expect(!lint.findings.contains { $0.rule == .unreachableScreen })
        // Declaring every kind of the route type instead, lint names what a signed-in reader
        // can't reach: the guests' sign-in.
        var everyKind = ForumApp(session: .signedIn("ada"))
        everyKind.declaresItsOwnScreens = false
        let all = try await FlowLinter(coordinator: everyKind).run()
        #expect(
            all.findings.filter { $0.rule == .unreachableScreen }.map(\.kind?.id) == [
                ScreenKind(derivedFrom: ForumRoute.signIn).id
            ])
    }

    @Test func deepLinksRoundTripAndTheUnlinkableAreNamed() async throws {
        let guest = try await build(ForumApp(session: .guest))
        defer { remove(guest) }
        let lint = try #require(guest.report.flowLint)
        #expect(!lint.findings.contains { $0.rule == .deepLinkRoundTrip || $0.rule == .unknownDeepLink })
        // Followers and sign-in have no links at all: not deep-linkable, which is no finding.
        #expect(!lint.findings.contains { $0.rule == .unlinkableRoute })
        let flow = try #require(guest.report.flow)
        #expect(flow.kind(ScreenKind(derivedFrom: ForumRoute.question(1)).id)?.deepLinkedPages == 2)
        #expect(flow.kind(ScreenKind(derivedFrom: ForumRoute.followers("a")).id)?.deepLinkedPages == 0)
        #expect(try guest.page("flow/").contains("2 pages · deep link"))
    }
}

/// What review and coverage say of the forum: a renamed link once with its count, and the
/// transitions its tests take, miss and no longer have.
@Suite struct ForumReviewTests {
    @Test func aRenamedLinkReadsAsOneChangeWithItsCount() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (before, after) = (folder.appendingPathComponent("before"), folder.appendingPathComponent("after"))
        _ = try await SiteBuilder(coordinator: ForumApp(session: .guest)).build(into: before)
        var renamed = ForumApp(session: .guest)
        renamed.signInLabel = "Log in to answer"
        _ = try await SiteBuilder(coordinator: renamed).build(into: after)
        let comparison = try SiteComparison(old: before, new: after)
        // Both questions, as one change: not a - and a + row per page.
        #expect(comparison.pagesChanged == 2)
        #expect(
            comparison.groups.map { "\($0.before ?? "") → \($0.after ?? ""): \($0.pages.count)" } == ["Sign → Log: 2"])
        #expect(comparison.text().contains("~ [Sign → Log] on 2 pages:"))
        // The flow did not change: no kind or transition row.
        #expect(!comparison.text().contains("transition"))
    }

    @Test func theSiteSnapshotSaysTheTabBarBothSignInPagesAndWhyPagesEnd() async throws {
        let guest = try await SiteSnapshot(walking: ForumApp(session: .guest))
        #expect(guest.text.hasPrefix("tab bar: Feed (/), Sign in (/sign-in/)\n"))
        #expect(guest.text.contains("======== /users/grace/followers/ (push; ends: its empty state)"))
        #expect(guest.text.contains("======== /sign-in/ (root)"))
        #expect(guest.text.contains("======== /sign-in/dialog/ (modal over /questions/1/)"))
        #expect(guest.text.contains("[Sign in to answer](../../sign-in/dialog/index.html)"))
        let signedIn = try await SiteSnapshot(walking: ForumApp(session: .signedIn("ada")))
        #expect(signedIn.text.contains("======== /questions/1/answered/ (push; ends here on purpose)"))
    }

    @Test func coverageNamesWhatTheTestsTakeMissAndNoLongerFind() async throws {
        let taken = FlowGraph.Coverage([
            .init(from: "feed", to: "question", presentation: .push),
            .init(from: "question", to: ScreenKind(derivedFrom: ForumRoute.signIn).id, presentation: .modal),
            // A transition the forum had once: its "answer" screen is gone.
            .init(from: "question", to: "answer", presentation: .push)
        ])
        var app = ForumApp(session: .guest)
        app.flowLint.enabledRules = ["untested-transition"]
        let (flow, lint) = try await FlowLinter(coordinator: app, coverage: taken).walk()
        #expect(taken.stale(in: flow).map(\.description) == ["question → answer (push)"])
        #expect(lint.notes.contains { $0.contains("question → answer (push)") && $0.contains("re-record") })
        let untested = lint.findings.filter { $0.rule == .untestedTransition }.map(\.message)
        #expect(untested.contains { $0.hasPrefix("No test takes Question → Tag (push)") })
        #expect(!untested.contains { $0.contains("Question → Sign in (modal)") })
        let counts = try #require(lint.coverage)
        #expect(counts.reduce(0) { $0 + $1.tested } == 2)
    }
}

extension String {
    /// The text between the first `open` and the next `close` after it.
    fileprivate func between(_ open: String, _ close: String) -> String? {
        guard let start = range(of: open), let end = range(of: close, range: start.upperBound..<endIndex) else {
            return nil
        }
        return String(self[start.upperBound..<end.lowerBound])
    }
}
