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
    /// The stylesheet's text, which the 404 page carries inline so that it is styled at any URL.
    let inlineStylesheet: String
    /// The site's icon among the assets, from the site root, if the template set has one.
    let faviconPath: String?
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
        self.faviconPath = templates.assets[Self.faviconAsset] == nil ? nil : SiteWriter.assetsFolder + "/" + Self.faviconAsset
        let stylesheet = templates.assets["style.css"].map { String(decoding: $0, as: UTF8.self) } ?? ""
        // Inside <style> the text is raw: only "</style" could end it early.
        if stylesheet.lowercased().contains("</style") {
            throw FlowSiteError(.template(name: "assets/style.css", message: "it contains \"</style\", so the 404 page cannot carry it inline"))
        }
        self.inlineStylesheet = stylesheet
    }

    /// The site icon's name among the assets.
    static var faviconAsset: String { "favicon.svg" }

    /// The path from the host's root that the 404 page's links start from: the base URL's path
    /// (`/docs/`), or `/` without one. A server shows the page at any URL, so page-relative
    /// links would be wrong there; in a browser its script corrects them when the site turns
    /// out to live elsewhere.
    package var notFoundRoot: String {
        guard let baseURL, let components = URLComponents(string: baseURL) else { return "/" }
        let path = components.percentEncodedPath
        return path.hasSuffix("/") ? path : path + "/"
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
            context["closeLabel"] = site.label("closeAndReturn", ["title": presenter.title])
        }
        // A dialog is a state of the page under it, not a page of its own: search engines
        // should neither index it nor find it in the sitemap.
        let indexable = visit.presentation != .modal
        context["noindex"] = !indexable
        if let baseURL, indexable {
            context["canonicalURL"] = baseURL + here.file
        }
        if let pagination = PaginationLinks(pages: visit.page.pagination, current: visit.route) {
            context["pagination"] = paginationContext(pagination, at: here)
        }
        if let searchIndexPath { context["searchIndexURL"] = here.relativeURL(toSiteFile: searchIndexPath) }
        for (key, value) in visit.page.templateValues where context[key] == nil {
            context[key] = value
        }
        return try render("layout", context)
    }

    /// The site's 404 page, written at the root, which a server shows at any URL of any depth.
    ///
    /// It carries the stylesheet inline, so it is styled wherever it is shown. Its links start
    /// from ``notFoundRoot`` (the base URL's path, or `/`), which is right without JavaScript on
    /// the host the site was built for, or at a host's root. In a browser its script moves them
    /// to the folder the site really is in: the base URL when the page is shown under it, the
    /// page's own folder when it is opened as `404.html` (from disk, say), or else the nearest
    /// parent folder of the address that holds a `404.html`.
    package func renderNotFound() throws -> String {
        let root = notFoundRoot
        var context = sharedContext(at: .root, breadcrumbRoutes: [])
        let title = site.label("notFoundTitle")
        context["title"] = title
        context["documentTitle"] = documentTitle(title)
        context["notFoundHome"] = site.label("notFoundHome", ["site": site.name])
        context["siteRoot"] = root
        context["baseURL"] = baseURL ?? ""
        context["root"] = root
        context["homeURL"] = root + "index.html"
        context["stylesheet"] = root + SiteWriter.assetsFolder + "/style.css"
        context["inlineStylesheet"] = inlineStylesheet
        if let faviconPath { context["favicon"] = root + faviconPath }
        context["navigation"] = site.navigation.map { action -> [String: Any] in
            ["title": action.label, "url": root + action.route.path.file, "isCurrent": false, "isSection": false]
        }
        return try render("404", context)
    }

    /// The pagination partial's values: the links as URLs from `here`, with their labels.
    private func paginationContext(_ pagination: PaginationLinks<R>, at here: RoutePath) -> [String: Any] {
        var context: [String: Any] = [:]
        if let previous = pagination.previous {
            context["previousURL"] = here.relativeURL(to: previous.route.path)
            context["hasPrevious"] = true
        }
        if let next = pagination.next {
            context["nextURL"] = here.relativeURL(to: next.route.path)
            context["hasNext"] = true
        }
        context["items"] = pagination.items.map { item -> [String: Any] in
            switch item {
            case .gap:
                return ["isGap": true]
            case .page(let action, let number, let isCurrent):
                return [
                    "isPage": true,
                    "isCurrent": isCurrent,
                    "label": action.label,
                    "pageLabel": site.label("page", ["number": action.label]),
                    "url": here.relativeURL(to: action.route.path),
                    "number": number,
                ]
            }
        }
        return context
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
                // A section of the outline has a heading; a styled group without one is a div.
                let element = Self.startsWithHeading(fragment) ? "section" : "div"
                html += "<\(element) class=\"\(style.name)\">\n" + fragment + "</\(element)>\n"
            } else {
                html += fragment
            }
        }
        return html
    }

    /// Whether cmark's HTML begins with a heading (`<h2>` to `<h6>`).
    static func startsWithHeading(_ html: String) -> Bool {
        let start = Array(html.utf8.prefix(4))
        return start.count == 4 && start[0] == UInt8(ascii: "<") && start[1] == UInt8(ascii: "h")
            && (UInt8(ascii: "1")...UInt8(ascii: "6")).contains(start[2]) && start[3] == UInt8(ascii: ">")
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
            "labels": site.allLabels,
            "favicon": faviconPath.map { here.relativeURL(toSiteFile: $0) } ?? "",
        ]
    }

    private func render(_ name: String, _ context: [String: Any]) throws -> String {
        guard let html = library.render(context, withTemplate: name) else {
            throw FlowSiteError(.template(name: "\(name).mustache", message: "the template is missing"))
        }
        return html
    }
}
