import FlowSite
import FlowSiteUtilities
import Foundation
import SnapshotTesting

/// Every page of an app as one reviewable text, walked as a build walks it: the tab bar, then each page's path, how
/// it is reached (and why it ends), breadcrumbs, Markdown and files. A change in the flow shows as a diff:
/// `assertSnapshot(of: try await SiteSnapshot(walking: app), as: .site)`.
public struct SiteSnapshot: Sendable {
    /// The pages in the walk's order (breadth-first from the start route).
    public let text: String
    /// How many pages the walk found.
    public let pageCount: Int

    /// Walks `coordinator` and keeps every page.
    /// - Throws: `FlowSiteError` when screens fail that the app has no error screen for, as a build would.
    public init<C: RootCoordinator>(walking coordinator: C) async throws {
        let visits = Locked<[Int: PageVisit<C.R>]>([:])
        let graph = try await SiteWalker(coordinator: coordinator).walk { visit in
            visits.withLock { $0[visit.index] = visit }
        }
        try graph.requireNoFailures()
        let pages = visits.withLock { $0 }
        let pageTexts = graph.routes.indices.compactMap { pages[$0] }.map(Self.describe)
        // The tab bar is on every page but dialogs: said once, first.
        let tabs = coordinator.siteInfo.navigation.map { "\($0.label) (\($0.route.path))" }
        text =
            (tabs.isEmpty ? [] : ["tab bar: " + tabs.joined(separator: ", ") + "\n"]).joined()
            + pageTexts.joined(separator: "\n")
        pageCount = graph.routes.count
    }

    private static func describe<R: Route>(_ visit: PageVisit<R>) -> String {
        let path = visit.path
        var reached = visit.presentation.rawValue
        if let presenter = visit.presenter { reached += " over \(presenter.path)" }
        if let error = visit.recoveredError { reached += "; error screen for: \(error)" }
        // An ending only where the page has no way on of its own.
        let leadsOn = !visit.page.document.linkedRoutes.isEmpty || visit.page.pagination != nil
        switch visit.page.ending {
        case .emptyState: reached += leadsOn ? "; shows its empty state" : "; ends: its empty state"
        case .intended: reached += leadsOn ? "; marked as an ending, but leads on" : "; ends here on purpose"
        case nil: break
        }
        var lines = [
            "======== \(path) (\(reached))",
            "breadcrumbs: " + visit.breadcrumbs.map(\.title).joined(separator: " › ")
        ]
        if !visit.page.files.isEmpty {
            lines.append(
                "files: "
                    + visit.page.files.sorted { $0.key < $1.key }.map { "\($0.key) (\($0.value.count) bytes)" }.joined(
                        separator: ", "))
        }
        lines.append("")
        lines.append(pageMarkdown(visit.page, at: path, linking: visit.linkPath(to:)))
        return lines.joined(separator: "\n")
    }
}

/// A page's title and Markdown, with route links resolved as on the page at `path`.
func pageMarkdown<R: Route>(
    _ page: Page<R>, at path: RoutePath, linking target: @escaping (R) -> RoutePath = \.path
) -> String {
    "# \(page.title)\n\n"
        + page.document.markdown(
            linking: { path.relativeURL(to: target($0)) },
            siteFile: { path.relativeURL(toSiteFile: $0) }
        )
}

extension Snapshotting where Value == SiteSnapshot, Format == String {
    /// The whole site as one Markdown file; see ``SiteSnapshot``.
    public static var site: Snapshotting<SiteSnapshot, String> {
        var strategy = SimplySnapshotting.lines.pullback(\SiteSnapshot.text)
        strategy.pathExtension = "md"
        return strategy
    }
}
