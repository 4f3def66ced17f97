import Foundation
import Mustache

/// Turns a ``PageVisit`` into HTML: route links become relative URLs, cmark renders the
/// Markdown, and the `layout` template wraps it with title, breadcrumbs, navigation and footer.
package struct PageRenderer<R: Route>: Sendable {
    /// The site's shared information.
    package let site: SiteInfo<R>
    /// The absolute URL the site will be served from, if known (for the 404 page and sitemap).
    package let baseURL: String?
    /// Where the site's search index is, from the site root, if it has one.
    let searchIndexPath: String?
    private let library: MustacheLibrary

    /// Parses every template.
    ///
    /// Each template is parsed with the engine's own content type, so every `{{value}}` is
    /// escaped per Unicode scalar by the engine, whatever the template library would do.
    /// - Throws: ``FlowSiteError`` naming a template that does not parse, or a missing `layout`.
    package init(templates: TemplateSet, site: SiteInfo<R>, baseURL: String? = nil, searchIndexPath: String? = nil) throws {
        var library = MustacheLibrary()
        let pragma = HTMLValueContentType.registered
        for (name, source) in templates.templates.sorted(by: { $0.key < $1.key }) {
            do {
                library.register(try MustacheTemplate(string: pragma + "\n" + source), named: name)
            } catch let error as MustacheTemplate.ParserError {
                // The pragma line comes first, so the template's own lines start at 2.
                let where_ = "line \(error.context.lineNumber - 1), column \(error.context.columnNumber)"
                throw FlowSiteError(.template(name: "\(name).mustache", message: "\(where_): \(error.error)"))
            } catch {
                throw FlowSiteError(.template(name: "\(name).mustache", message: "\(error)"))
            }
        }
        for required in ["layout", "404"] where library.getTemplate(named: required) == nil {
            throw FlowSiteError(.template(name: "\(required).mustache", message: "the template is missing"))
        }
        self.library = library
        self.site = site
        self.searchIndexPath = searchIndexPath
        self.baseURL = baseURL.map { $0.hasSuffix("/") ? $0 : $0 + "/" }
    }

    /// The page's HTML document.
    package func render(_ visit: PageVisit<R>) throws -> String {
        let here = visit.route.path
        let content = try contentHTML(visit.page.document, at: here)
        var context = sharedContext(at: here, breadcrumbRoutes: visit.breadcrumbs.map(\.route))
        context["title"] = visit.page.title
        context["documentTitle"] = documentTitle(visit.page.title)
        if let summary = visit.page.summary { context["description"] = summary }
        context["content"] = content
        context["hasBreadcrumbs"] = visit.breadcrumbs.count > 1
        context["breadcrumbs"] = visit.breadcrumbs.enumerated().map { index, crumb -> [String: Any] in
            [
                "title": crumb.title,
                "url": here.relativeURL(to: crumb.route.path),
                "isCurrent": index == visit.breadcrumbs.count - 1,
            ]
        }
        if visit.presentation == .modal, let presenter = visit.presenter {
            context["isModal"] = true
            context["closeURL"] = here.relativeURL(to: presenter.route.path)
            context["closeTitle"] = presenter.title
        }
        if let searchIndexPath { context["searchIndexURL"] = here.relativeURL(toSiteFile: searchIndexPath) }
        for (key, value) in visit.page.templateValues where context[key] == nil {
            context[key] = value
        }
        return try render("layout", context)
    }

    /// The site's 404 page, written at the root. With a base URL its links are absolute, so it
    /// works at whatever path the server shows it; otherwise they are relative to the root.
    package func renderNotFound() throws -> String {
        var context = sharedContext(at: .root, breadcrumbRoutes: [])
        context["title"] = "Page not found"
        context["documentTitle"] = documentTitle("Page not found")
        if let baseURL {
            context["root"] = baseURL
            context["homeURL"] = baseURL + "index.html"
            context["stylesheet"] = baseURL + SiteWriter.assetsFolder + "/style.css"
            context["navigation"] = site.navigation.map { action -> [String: Any] in
                ["title": action.label, "url": baseURL + action.route.path.file, "isCurrent": false]
            }
        }
        return try render("404", context)
    }

    /// The HTML of a document placed at `here`: its styled sections wrapped in `<section>`.
    package func contentHTML(_ document: MarkdownDocument<R>, at here: RoutePath) throws -> String {
        var html = ""
        let chunks = document.chunks(
            linking: { here.relativeURL(to: $0.path) },
            siteFile: { here.relativeURL(toSiteFile: $0) }
        )
        for chunk in chunks {
            let fragment = try CommonMark.html(from: chunk.markdown)
            if let style = chunk.style {
                html += "<section class=\"\(style.name)\">\n" + fragment + "</section>\n"
            } else {
                html += fragment
            }
        }
        return html
    }

    /// "Luke Skywalker · Star Wars Holocron", or just the site's name on a page named like it.
    private func documentTitle(_ title: String) -> String {
        title == site.name ? title : "\(title) · \(site.name)"
    }

    private func sharedContext(at here: RoutePath, breadcrumbRoutes: [R]) -> [String: Any] {
        // A navigation entry marks its section: pages on the breadcrumb trail below the front
        // page, and pages in its folder (a list's page 2 belongs to the list).
        let sections = Set(breadcrumbRoutes.dropFirst().map(\.path))
        func inSection(_ path: RoutePath) -> Bool {
            guard path != here, !path.slugs.isEmpty else { return false }
            return sections.contains(path) || here.slugs.starts(with: path.slugs)
        }
        return [
            "lang": site.language,
            "siteName": site.name,
            "footer": site.footer,
            "root": here.rootPrefix,
            "homeURL": here.relativeURL(to: .root),
            "stylesheet": here.relativeURL(toSiteFile: SiteWriter.assetsFolder + "/style.css"),
            "searchScript": here.relativeURL(toSiteFile: SiteSearch<R>.script),
            "navigation": site.navigation.map { action -> [String: Any] in
                [
                    "title": action.label,
                    "url": here.relativeURL(to: action.route.path),
                    "isCurrent": action.route.path == here,
                    "isSection": inSection(action.route.path),
                ]
            },
            "hasBreadcrumbs": false,
            "isModal": false,
        ]
    }

    private func render(_ name: String, _ context: [String: Any]) throws -> String {
        guard let html = library.render(context, withTemplate: name) else {
            throw FlowSiteError(.template(name: "\(name).mustache", message: "the template is missing"))
        }
        return html
    }
}
