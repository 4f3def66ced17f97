import FlowSite
import Foundation
import SnapshotTesting

extension Snapshotting where Format == String {
    /// A page's Markdown, with route links resolved as on the page at `path`:
    /// `assertSnapshot(of: screen.page(for: .empty("No films")), as: .markdown(at: route.path))`.
    public static func markdown<R: Route>(at path: RoutePath = .root) -> Snapshotting<Page<R>, String>
    where Value == Page<R> {
        var strategy = SimplySnapshotting.lines.pullback { (page: Page<R>) in pageMarkdown(page, at: path) }
        strategy.pathExtension = "md"
        return strategy
    }

    /// A page as the site writes it (cmark's HTML in the layout) at `route`, with the breadcrumb `trail` (the page
    /// alone when empty), over `presenter` when modal, in a site with `search` if any. A step of the trail and the
    /// presenter are each a ``TitledRoute``, a title and a route:
    ///
    /// ```swift
    /// assertSnapshot(
    ///     of: page,
    ///     as: .html(
    ///         at: .signIn, site: site, trail: [("Feed", .feed), ("Sign in", .signIn)], presentation: .modal,
    ///         presenter: (title: "Feed", route: .feed)))
    /// ```
    public static func html<R: Route>(
        at route: R,
        site: SiteInfo<R>,
        trail: [TitledRoute<R>] = [],
        presentation: Presentation = .push,
        presenter: TitledRoute<R>? = nil,
        templates: TemplateSet = .embedded,
        search: SiteSearch<R>? = nil
    ) -> Snapshotting<Page<R>, String> where Value == Page<R> {
        let renderer: PageRenderer<R>
        do {
            renderer = try PageRenderer(templates: templates, site: site, searchIndexPath: search?.indexPath)
        } catch {
            return SimplySnapshotting.lines.pullback { _ in "template error: \(error)" }
        }
        var strategy = SimplySnapshotting.lines.pullback { (page: Page<R>) -> String in
            let crumbs =
                trail.isEmpty
                ? [Breadcrumb(title: page.breadcrumbTitle, route: route)]
                : trail.map { Breadcrumb(title: $0.title, route: $0.route) }
            let visit = PageVisit(
                route: route, page: page, breadcrumbs: crumbs, presentation: presentation,
                presenter: presenter.map { Breadcrumb(title: $0.title, route: $0.route) }, recoveredError: nil
            )
            do {
                return String(decoding: try renderer.render(visit), as: UTF8.self)
            } catch {
                return "render error: \(error)"
            }
        }
        strategy.pathExtension = "html"
        return strategy
    }
}

/// A page named by its title and its route, as a breadcrumb or a dialog's presenter shows it:
/// `(title: "Feed", route: .feed)`, or `("Feed", .feed)`.
public typealias TitledRoute<R: Route> = (title: String, route: R)
