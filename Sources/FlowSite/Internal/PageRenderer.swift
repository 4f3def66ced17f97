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
    /// The templates compiled to byte segments, or `nil` when one uses Mustache the compiler
    /// doesn't cover (then swift-mustache renders, with the same escaping).
    private let compiled: [String: CompiledTemplate]?

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
        var compiled: [String: CompiledTemplate]? = [:]
        for (name, source) in templates.templates {
            guard let template = CompiledTemplate.compile(source) else { compiled = nil; break }
            compiled?[name] = template
        }
        self.compiled = compiled
        self.site = site
        self.searchIndexPath = searchIndexPath
        self.baseURL = baseURL.map { $0.hasSuffix("/") ? $0 : $0 + "/" }
    }

    /// The Markdown of `document` placed at `here`, in chunks by section style, with every
    /// route link resolved; `siteFile` hears each link to a site file (from the site root).
    package func chunks(
        of document: MarkdownDocument<R>, at here: RoutePath, siteFile: (String) -> Void = { _ in }
    ) -> [(style: SectionStyle?, markdown: String)] {
        withoutActuallyEscaping(siteFile) { siteFile in
            document.chunks(
                linking: { here.relativeURL(to: $0.path) },
                siteFile: { path in
                    siteFile(path)
                    return here.relativeURL(toSiteFile: path)
                }
            )
        }
    }

    /// The page's HTML document, as UTF-8 bytes.
    package func render(_ visit: PageVisit<R>) throws -> [UInt8] {
        try render(visit, chunks: chunks(of: visit.page.document, at: visit.route.path))
    }

    /// The page's HTML document from its Markdown chunks (see ``chunks(of:at:siteFile:)``).
    package func render(_ visit: PageVisit<R>, chunks: [(style: SectionStyle?, markdown: String)], phases: PhaseClock? = nil) throws -> [UInt8] {
        let here = visit.route.path
        var content: [UInt8] = []
        let clock = ContinuousClock()
        let started = clock.now
        try appendContentHTML(chunks, to: &content)
        let converted = clock.now
        phases?.add(.cmark, converted - started)
        defer { phases?.add(.layout, clock.now - converted) }
        var context = sharedContext(at: here, breadcrumbRoutes: visit.breadcrumbs.map(\.route))
        context["title"] = .text(visit.page.title)
        context["documentTitle"] = .text(documentTitle(visit.page.title))
        if let summary = visit.page.summary { context["description"] = .text(summary) }
        context["content"] = .html(content)
        context["hasBreadcrumbs"] = .flag(visit.breadcrumbs.count > 1)
        let last = visit.breadcrumbs.count - 1
        context["breadcrumbs"] = .list(visit.breadcrumbs.enumerated().map { index, crumb in
            [
                "title": .text(crumb.title),
                "url": .text(here.relativeURL(to: crumb.route.path)),
                "isCurrent": .flag(index == last),
            ]
        })
        if visit.presentation == .modal, let presenter = visit.presenter {
            context["isModal"] = .flag(true)
            context["closeURL"] = .text(here.relativeURL(to: presenter.route.path))
            context["closeTitle"] = .text(presenter.title)
        }
        if let searchIndexPath { context["searchIndexURL"] = .text(here.relativeURL(toSiteFile: searchIndexPath)) }
        for (key, value) in visit.page.templateValues where context[key] == nil {
            context[key] = .text(value)
        }
        return try render("layout", context)
    }

    /// The site's 404 page, written at the root. With a base URL its links are absolute, so it
    /// works at whatever path the server shows it; otherwise they are relative to the root.
    package func renderNotFound() throws -> [UInt8] {
        var context = sharedContext(at: .root, breadcrumbRoutes: [])
        context["title"] = .text("Page not found")
        context["documentTitle"] = .text(documentTitle("Page not found"))
        if let baseURL {
            context["root"] = .text(baseURL)
            context["homeURL"] = .text(baseURL + "index.html")
            context["stylesheet"] = .text(baseURL + SiteWriter.assetsFolder + "/style.css")
            context["navigation"] = .list(site.navigation.map { action in
                ["title": .text(action.label), "url": .text(baseURL + action.route.path.file), "isCurrent": .flag(false)]
            })
        }
        return try render("404", context)
    }

    /// The HTML of a document placed at `here`: its styled sections wrapped in `<section>`.
    package func contentHTML(_ document: MarkdownDocument<R>, at here: RoutePath) throws -> String {
        var out: [UInt8] = []
        try appendContentHTML(chunks(of: document, at: here), to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    private func appendContentHTML(_ chunks: [(style: SectionStyle?, markdown: String)], to out: inout [UInt8]) throws {
        for chunk in chunks {
            if let style = chunk.style {
                out.append(contentsOf: "<section class=\"\(style.name)\">\n".utf8)
                try CommonMark.appendHTML(of: chunk.markdown, to: &out)
                out.append(contentsOf: "</section>\n".utf8)
            } else {
                try CommonMark.appendHTML(of: chunk.markdown, to: &out)
            }
        }
    }

    /// "Luke Skywalker · Star Wars Holocron", or just the site's name on a page named like it.
    private func documentTitle(_ title: String) -> String {
        title == site.name ? title : "\(title) · \(site.name)"
    }

    private func sharedContext(at here: RoutePath, breadcrumbRoutes: [R]) -> [String: TemplateValue] {
        // A navigation entry marks its section: pages on the breadcrumb trail below the front
        // page, and pages in its folder (a list's page 2 belongs to the list).
        let sections = Set(breadcrumbRoutes.dropFirst().map(\.path))
        func inSection(_ path: RoutePath) -> Bool {
            guard path != here, !path.slugs.isEmpty else { return false }
            return sections.contains(path) || here.slugs.starts(with: path.slugs)
        }
        return [
            "lang": .text(site.language),
            "siteName": .text(site.name),
            "footer": .text(site.footer),
            "root": .text(here.rootPrefix),
            "homeURL": .text(here.relativeURL(to: .root)),
            "stylesheet": .text(here.relativeURL(toSiteFile: SiteWriter.assetsFolder + "/style.css")),
            "searchScript": .text(here.relativeURL(toSiteFile: SiteSearch<R>.script)),
            "navigation": .list(site.navigation.map { action in
                [
                    "title": .text(action.label),
                    "url": .text(here.relativeURL(to: action.route.path)),
                    "isCurrent": .flag(action.route.path == here),
                    "isSection": .flag(inSection(action.route.path)),
                ]
            }),
            "hasBreadcrumbs": .flag(false),
            "isModal": .flag(false),
        ]
    }

    private func render(_ name: String, _ context: [String: TemplateValue]) throws -> [UInt8] {
        if let compiled {
            guard let template = compiled[name] else {
                throw FlowSiteError(.template(name: "\(name).mustache", message: "the template is missing"))
            }
            var out: [UInt8] = []
            out.reserveCapacity(16_384)
            var stack = [context]
            template.render(&stack, into: &out, partials: compiled)
            return out
        }
        guard let html = library.render(context.mapValues(Self.mustacheValue), withTemplate: name) else {
            throw FlowSiteError(.template(name: "\(name).mustache", message: "the template is missing"))
        }
        return Array(html.utf8)
    }

    /// A value as swift-mustache takes it.
    private static func mustacheValue(_ value: TemplateValue) -> Any {
        switch value {
        case .text(let text): text
        case .html(let bytes): String(decoding: bytes, as: UTF8.self)
        case .flag(let flag): flag
        case .list(let frames): frames.map { $0.mapValues(mustacheValue) }
        }
    }
}
