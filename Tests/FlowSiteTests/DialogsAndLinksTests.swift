import Foundation
import Testing

@testable import FlowSite

/// A reader app whose filter dialog opens from two feeds and whose About page links out of the site
/// (issue 63, item 5).
enum Outbound: Route {
    case home, feed(String), filter, about

    var path: RoutePath {
        switch self {
        case .home: .root
        case .feed(let name): ["feeds", Slug(name)]
        case .filter: ["filter"]
        case .about: ["about"]
        }
    }
}

struct ReaderLinksApp: RootCoordinator {
    /// The About page's links out of the site.
    var outbound = ["https://example.com/privacy", "mailto:help@example.com"]
    /// Whether the filter and About pages say they end the flow on purpose.
    var marksEnds = true

    var startRoute: Outbound { .home }
    var siteInfo: SiteInfo<Outbound> { SiteInfo(name: "Reader") }

    func makeScreen(for route: Outbound) async throws -> any Screen<Outbound> {
        var document = MarkdownDocument<Outbound>()
        let title: String
        switch route {
        case .home:
            title = "Reader"
            document.list([[.link("Swift", to: .feed("swift"))], [.link("Linux", to: .feed("linux"))]])
            document.paragraph(.link("About", to: .about))
        case .feed(let name):
            title = "Feed \(name)"
            document.paragraph(.link("Filter", to: .filter))
        case .filter:
            title = "Filter"
            document.paragraph("Newest first.")
        case .about:
            title = "About"
            document.paragraph("Read our ", .externalLink("privacy policy", to: outbound[0]), ".")
            document.list(outbound.dropFirst().map { [.externalLink("Write to us", to: $0)] })
        }
        var page = Page(title: title, document: document)
        if marksEnds, route == .filter || route == .about { page.ending = .intended }
        return OutboundScreen(page: page)
    }

    func presentation(of route: Outbound, from source: Outbound) -> Presentation {
        route == .filter ? .modal : .push
    }
}

struct OutboundScreen: Screen {
    let page: Page<Outbound>
    func makePage() async throws -> Page<Outbound> { page }
}

@Suite struct DialogsAndLinksTests {
    static func build(_ app: ReaderLinksApp) async throws -> (URL, BuildReport) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("links-\(UUID().uuidString)")
        return (folder, try await SiteBuilder(coordinator: app).build(into: folder))
    }

    @Test func aLinkThatOpensADialogSaysSoAndCloseGoesBackWhereTheReaderCameFrom() async throws {
        let (folder, _) = try await Self.build(ReaderLinksApp())
        defer { try? FileManager.default.removeItem(at: folder) }
        func page(_ path: String) throws -> String {
            try String(contentsOf: folder.appendingPathComponent(path + "index.html"), encoding: .utf8)
        }
        for feed in ["feeds/swift/", "feeds/linux/"] {
            #expect(
                try page(feed).contains(
                    #"<a href="../../filter/index.html" class="opens-dialog">Filter"#
                        + #"<span class="link-note"> (opens a dialog)</span></a>"#
                ), "\(feed)")
        }
        // A push is not marked.
        #expect(try page("").contains(#"<a href="feeds/swift/index.html">Swift</a>"#))
        let filter = try page("filter/")
        let label = "Close: back to the page you came from, or else to Feed swift"
        // Close states its fallback, the page that first opened the dialog, and its script goes back in history.
        #expect(
            filter.contains(
                #"aria-label="\#(label)" title="\#(label)">Close</a>"#
            ), "\(filter)")
        #expect(filter.contains(#"<script src="../assets/back.js" data-root="../" defer></script>"#))
        let script = try String(
            contentsOf: folder.appendingPathComponent("assets/back.js"), encoding: .utf8)
        #expect(script.contains("window.history.back()"))
        #expect(!(try page("feeds/swift/")).contains("back.js"), "only dialogs and pages with back links load it")
    }

    @Test func externalLinksAreMarkedAsLeavingTheSiteAndNeverWalked() async throws {
        let (folder, report) = try await Self.build(ReaderLinksApp())
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(report.pages == 5)
        // Listed apart from the links the check reads: counted, never followed.
        #expect(report.externalLinks == 2)
        #expect(report.description.contains("; 2 links out of the site not checked"), "\(report.description)")
        let note = #"<span class="link-note"> (leaves the site)</span>"#
        let mail = #"<span class="link-note"> (opens your email app)</span>"#
        let about = try String(contentsOf: folder.appendingPathComponent("about/index.html"), encoding: .utf8)
        #expect(
            about.contains(
                #"<p>Read our <a href="https://example.com/privacy" class="external">privacy policy\#(note)</a>.</p>"#
            ), "\(about)")
        #expect(
            about.contains(
                #"<li><a href="mailto:help@example.com" class="external">Write to us\#(mail)</a></li>"#
            ))
        #expect(!about.contains("ugc"), "the app's own links are not user content")
    }

    @Test func aSchemeInCapitalsIsMarkedAndALinkOutIsAWayOn() async throws {
        var app = ReaderLinksApp()
        app.outbound = ["HTTPS://EXAMPLE.COM/PRIVACY", "Mailto:help@example.com"]
        app.marksEnds = false
        let (folder, report) = try await Self.build(app)
        defer { try? FileManager.default.removeItem(at: folder) }
        let about = try String(contentsOf: folder.appendingPathComponent("about/index.html"), encoding: .utf8)
        #expect(about.contains(#"<a href="HTTPS://EXAMPLE.COM/PRIVACY" class="external">"#), "\(about)")
        #expect(about.contains(#"<a href="Mailto:help@example.com" class="external">"#))
        // About's only links leave the site: a way on, so no dead end; the filter dialog has its Close.
        let lint = try #require(report.flowLint)
        #expect(!lint.findings.contains { $0.rule == .deadEnd }, "\(lint.findings.map(\.message))")
    }

    @Test(arguments: [
        ("javascript:alert(1)", "javascript:alert(1)", "is not an absolute https, http or mailto URL"),
        ("/about/", "/about/", "is not an absolute https, http or mailto URL"),
        ("https://exa\u{202E}lpmaxe.com", "https://exa\\u{202E}lpmaxe.com", "holds a bidirectional control character"),
        ("https://example.com/\u{7}", "https://example.com/\\u{7}", "holds a control character"),
        ("https://example.com/a b", "https://example.com/a b", "holds a space (write it as %20)"),
        ("http:///path", "http:///path", "has no host"),
        ("mailto:", "mailto:", "names no address")
    ])
    func anUnsafeExternalLinkFailsTheBuildNamingThePage(url: String, shown: String, why: String) async throws {
        var app = ReaderLinksApp()
        app.outbound = [url]
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("unsafe-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let error = await #expect(throws: FlowSiteError.self) {
            _ = try await SiteBuilder(coordinator: app).build(into: folder)
        }
        guard case .unsafeExternalLink(let page, let named, let reason) = error?.reason else {
            Issue.record("expected unsafeExternalLink, got \(String(describing: error))")
            return
        }
        #expect(page == "/about/" && named == shown && reason == why)
        #expect(error?.description.hasPrefix("The page /about/ links to \(shown), which \(why)") == true)
        #expect(!FileManager.default.fileExists(atPath: folder.path), "nothing is written")
    }
}
