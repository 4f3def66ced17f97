import FlowSiteUtilities
import Foundation
import Mustache

/// Turns a ``PageVisit`` into HTML: relative route links, cmark's Markdown, wrapped in the `layout` template.
package struct PageRenderer<R: Route>: Sendable {
    /// The site's shared information.
    package let site: SiteInfo<R>
    /// The absolute URL the site will be served from, if known.
    package let baseURL: String?
    /// From the site root.
    let searchIndexPath: String?
    /// The 404 page carries the stylesheet inline so that it is styled at any URL.
    let inlineStylesheet: String
    let faviconPath: String?
    /// The script that takes Close and back links back in history: its path from the site root, when the template
    /// set has one.
    let backScriptPath: String?
    let flowMapPath: String?
    /// For the language switcher and `hreflang` alternates; `nil` in a site of one language.
    var languages: SiteLanguages?
    private let siteFrame: TemplateFrame
    private let navigationPaths: [(label: String, path: RoutePath)]
    private let compiled: [String: CompiledTemplate]
    private let sharedContexts = SharedContextCache()

    /// A renderer of `site`'s pages with `templates`, compiled (see ``CompiledTemplates``).
    /// - Throws: ``FlowSiteError`` for a template that does not parse or uses unsupported Mustache, a missing
    ///   `layout` or `404`, or a stylesheet that cannot go inline.
    package init(
        templates: TemplateSet, site: SiteInfo<R>, baseURL: String? = nil, searchIndexPath: String? = nil,
        flowMap: Bool = false
    ) throws {
        let compiled = try CompiledTemplates.of(templates)
        self.compiled = compiled.templates
        self.inlineStylesheet = compiled.inlineStylesheet
        self.site = site
        self.siteFrame = Self.siteFrame(site)
        self.navigationPaths = site.navigation.map { ($0.label, $0.route.path) }
        self.searchIndexPath = searchIndexPath
        self.flowMapPath = flowMap ? RoutePath([SiteLayout.flowMapFolder]).file : nil
        self.baseURL = baseURL.map { $0.hasSuffix("/") ? $0 : $0 + "/" }
        self.faviconPath =
            templates.assets[Self.faviconAsset] == nil ? nil : SiteLayout.assetsFolder + "/" + Self.faviconAsset
        self.backScriptPath =
            templates.assets[Self.backScriptAsset] == nil
            ? nil : SiteLayout.assetsFolder + "/" + Self.backScriptAsset
    }

    static var faviconAsset: String { "favicon.svg" }

    /// The script that makes a dialog's Close and the links that go back return in history, when the template set
    /// has it.
    static var backScriptAsset: String { "back.js" }

    /// Where the 404 page's links start: the base URL's path (`/docs/`), or `/`. A server shows the page at any
    /// URL, so relative links would be wrong; in a browser its script corrects them.
    var notFoundRoot: String {
        SiteLanguages.rootPath(of: baseURL) ?? "/" + (languages?.folder ?? "")
    }

    /// The Markdown of `document` placed at `here`, links resolved (routes in `dialogLinks` to their dialog copy);
    /// `siteFile` hears each link to a site file.
    func markdown(
        of document: MarkdownDocument<R>, at here: RoutePath, dialogLinks: Set<R> = [],
        siteFile: (String) -> Void = { _ in }
    ) -> PageMarkdown {
        document.pageMarkdown(
            linking: { route, out in
                here.appendRelativeURL(
                    to: route.pagePath(dialogCopy: !dialogLinks.isEmpty && dialogLinks.contains(route)), into: &out)
            },
            siteFile: { path, out in
                siteFile(path)
                here.appendRelativeURL(toSiteFile: path, into: &out)
            }
        )
    }

    func markdown(of visit: PageVisit<R>, siteFile: (String) -> Void = { _ in }) -> PageMarkdown {
        markdown(of: visit.page.document, at: visit.path, dialogLinks: visit.dialogLinks, siteFile: siteFile)
    }

    /// The page's HTML document, as UTF-8 bytes.
    package func render(_ visit: PageVisit<R>) throws -> [UInt8] {
        try render(visit, markdown: markdown(of: visit))
    }

    func render(_ visit: PageVisit<R>, markdown: PageMarkdown, phases: PhaseClock? = nil) throws -> [UInt8] {
        let here = visit.path
        var content: [UInt8] = []
        let clock = ContinuousClock()
        let started = clock.now
        try ContentHTML.append(markdown, to: &content, marks: linkMarks(of: visit, markdown: markdown))
        let converted = clock.now
        phases?.add(.cmark, converted - started)
        defer { phases?.add(.layout, clock.now - converted) }
        let breadcrumbs = visit.breadcrumbs
        var context = sharedContext(at: here, trail: breadcrumbs)
        context["title"] = .text(visit.page.title)
        context["documentTitle"] = .text(documentTitle(visit.page.title))
        if let summary = visit.page.summary { context["description"] = .text(summary) }
        context["content"] = .html(content)
        context["hasBreadcrumbs"] = .flag(breadcrumbs.count > 1)
        var crumbs: [TemplateFrame] = []
        crumbs.reserveCapacity(breadcrumbs.count)
        for index in breadcrumbs.indices {
            crumbs.append([
                "title": .text(breadcrumbs[index].title),
                "url": .text(here.relativeURL(to: breadcrumbs[index].path)),
                "isCurrent": .flag(index == breadcrumbs.count - 1)
            ])
        }
        context["breadcrumbs"] = .list(crumbs)
        // A trail through a page between is one way here: the first the walk found (fewest clicks, then the first
        // link in reading order), which a reader who came another way did not take.
        if breadcrumbs.count > 2 { context["trailLead"] = .text(site.label("trailLead")) }
        if let backScriptPath, visit.presentation == .modal || !visit.goesBackTo.isEmpty {
            context["backScript"] = .text(here.relativeURL(toSiteFile: backScriptPath))
        }
        if visit.presentation == .modal, let presenter = visit.presenter {
            context["isModal"] = .flag(true)
            context["closeURL"] = .text(here.relativeURL(to: presenter.path))
            context["closeTitle"] = .text(presenter.title)
            context["closeLabel"] = .text(
                site.label("closeAndReturn", ["title": presenter.title, "close": site.label("close")]))
        }
        // A dialog is a state of the page under it: not for search engines.
        let indexable = visit.presentation != .modal
        // A pseudo-locale is for testing.
        context["noindex"] = .flag(!indexable || languages?.isPseudo == true)
        if let baseURL, indexable {
            context["canonicalURL"] = .text(baseURL + here.file)
        }
        if let pagination = PaginationLinks(visit.page.pagination) {
            context["pagination"] = paginationContext(pagination, at: here)
        }
        if let searchIndexPath { context["searchIndexURL"] = .text(here.relativeURL(toSiteFile: searchIndexPath)) }
        // A page that isn't really translated is no one's alternate, nor has any.
        languages?.add(to: &context, at: here, alternates: indexable && visit.fallbackTexts.isEmpty)
        if !visit.fallbackTexts.isEmpty, let fallback = site.fallbackLanguage {
            let texts = visit.fallbackTexts.map { "“\($0)”" }.joined(separator: ", ")
            context["fallbackNote"] = .text(
                site.label(
                    "fallbackNote", ["language": SiteLanguages.name(of: fallback, in: site.language), "texts": texts]))
        }
        for (key, value) in visit.page.templateValues where context[key] == nil && siteFrame[key] == nil {
            context[key] = .text(value)
        }
        return try render("layout", context)
    }

    /// The 404 page, which a server shows at any URL: stylesheet inline, links from ``notFoundRoot``. In a browser
    /// its script moves them to the site's real folder: the base URL, the page's own folder when opened as
    /// `404.html`, or else the nearest parent folder of the address that holds a `404.html`.
    /// `atSiteRoot`: a multilingual site's root 404 page; links lead into this language, moved from the site root.
    func renderNotFound(atSiteRoot: Bool = false) throws -> [UInt8] {
        let root = notFoundRoot
        var context = sharedContext(at: .root, trail: [])
        let title = site.label("notFoundTitle")
        context["title"] = .text(title)
        context["documentTitle"] = .text(documentTitle(title))
        context["notFoundHome"] = .text(site.label("notFoundHome", ["site": site.name]))
        context["siteRoot"] = .text(root)
        context["baseURL"] = .text(baseURL ?? "")
        if atSiteRoot, let languages {
            context["siteRoot"] = .text(languages.siteRootPath)
            context["baseURL"] = .text(languages.siteBaseURL ?? "")
        }
        context["root"] = .text(root)
        context["homeURL"] = .text(root + "index.html")
        context["stylesheet"] = .text(root + SiteLayout.assetsFolder + "/style.css")
        context["inlineStylesheet"] = .text(inlineStylesheet)
        if let faviconPath { context["favicon"] = .text(root + faviconPath) }
        if let flowMapPath { context["flowMapURL"] = .text(root + flowMapPath) }
        context["navigation"] = .list(
            site.navigation.map { action in
                [
                    "title": .text(action.label), "url": .text(root + action.route.path.file),
                    "isCurrent": .flag(false), "isSection": .flag(false)
                ] as TemplateFrame
            })
        if let languages {
            // From the root path too, so the script moves these links with the others.
            context["hasLanguages"] = .flag(true)
            context["languages"] = .list(
                languages.all.indices.map { index in
                    let language = languages.all[index]
                    return [
                        "code": .text(language.code), "name": .text(language.name),
                        "url": .text(root + "../" + language.code + "/index.html"),
                        "isCurrent": .flag(index == languages.current), "isRightToLeft": .flag(language.isRightToLeft)
                    ] as TemplateFrame
                })
        }
        return try render("404", context)
    }

    private func paginationContext(_ pagination: PaginationLinks<R>, at here: RoutePath) -> TemplateValue {
        var context = TemplateFrame()
        if let previous = pagination.previous {
            context["previousURL"] = .text(here.relativeURL(to: previous.route.path))
            context["hasPrevious"] = .flag(true)
        }
        if let next = pagination.next {
            context["nextURL"] = .text(here.relativeURL(to: next.route.path))
            context["hasNext"] = .flag(true)
        }
        context["items"] = .list(
            pagination.items.map { item -> TemplateFrame in
                switch item {
                case .gap:
                    return ["isGap": .flag(true)]
                case .page(let action, let number, let isCurrent):
                    return [
                        "isPage": .flag(true),
                        "isCurrent": .flag(isCurrent),
                        "label": .text(action.label),
                        "pageLabel": .text(site.label("page", ["number": action.label])),
                        "url": .text(here.relativeURL(to: action.route.path)),
                        "number": .text("\(number)")
                    ]
                }
            })
        return .object(context)
    }

    /// The HTML of a document placed at `here`: its styled sections wrapped in `<section>`.
    func contentHTML(_ document: MarkdownDocument<R>, at here: RoutePath) throws -> String {
        var out: [UInt8] = []
        try ContentHTML.append(markdown(of: document, at: here), to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// "Ada · Crew", or just the site's name on a page named like it.
    private func documentTitle(_ title: String) -> String {
        title == site.name ? title : "\(title) · \(site.name)"
    }

    /// The bottom frame of every page's context, made once.
    static func siteFrame(_ site: SiteInfo<R>) -> TemplateFrame {
        var frame: TemplateFrame = [
            "lang": .text(site.language),
            "rtl": .flag(site.isRightToLeft),
            "siteName": .text(site.name),
            "footer": .text(site.footer),
            "hasBreadcrumbs": .flag(false),
            "isModal": .flag(false),
            "labels": .object(TemplateFrame(site.allLabels.mapValues { .text($0) }))
        ]
        if let messages = site.searchMessages { frame["searchMessages"] = .text(messages) }
        return frame
    }

    /// The values that depend on where the page is: made once per ``SharedContextCache/Shape`` and kept.
    private func sharedContext(at here: RoutePath, trail: [Breadcrumb<R>]) -> TemplateFrame {
        // A trail from a tab's root selects that tab; otherwise an entry is the section of the trail's pages
        // below the front page and of pages in its folder (a list's page 2).
        let stack = trail.map(\.path)
        let tabRoot = stack.first.flatMap { first in navigationPaths.contains { $0.path == first } ? first : nil }
        let sections = stack.dropFirst()
        func inSection(_ path: RoutePath) -> Bool {
            guard path != here else { return false }
            if let tabRoot { return path == tabRoot }
            return !path.slugs.isEmpty && (sections.contains(path) || here.slugs.starts(with: path.slugs))
        }
        var shape = SharedContextCache.Shape(depth: here.slugs.count)
        for (_, path) in navigationPaths {
            var common = 0
            while common < here.slugs.count, common < path.slugs.count, here.slugs[common] == path.slugs[common] {
                common += 1
            }
            guard shape.add(common: common, isCurrent: path == here, isSection: inSection(path)) else {
                return makeSharedContext(at: here, inSection: inSection)
            }
        }
        if let known = sharedContexts.context(for: shape) { return known }
        let context = makeSharedContext(at: here, inSection: inSection)
        sharedContexts.keep(context, for: shape)
        return context
    }

    /// A page the app's screens don't make (the flow map's): `content` is HTML with every text escaped.
    func renderStandalone(
        at here: RoutePath, title: String, summary: String?, trail: [(title: String, path: RoutePath)], content: String
    ) throws -> [UInt8] {
        var context = sharedContext(at: here, trail: [])
        context["title"] = .text(title)
        context["documentTitle"] = .text(documentTitle(title))
        if let summary { context["description"] = .text(summary) }
        context["content"] = .html(Array(content.utf8))
        languages?.add(to: &context, at: here)
        if languages?.isPseudo == true { context["noindex"] = .flag(true) }
        let crumbs = trail + [(title, here)]
        context["hasBreadcrumbs"] = .flag(crumbs.count > 1)
        context["breadcrumbs"] = .list(
            crumbs.indices.map { index in
                [
                    "title": .text(crumbs[index].title),
                    "url": .text(here.relativeURL(to: crumbs[index].path)),
                    "isCurrent": .flag(index == crumbs.count - 1)
                ] as TemplateFrame
            })
        if let baseURL { context["canonicalURL"] = .text(baseURL + here.file) }
        return try render("layout", context)
    }

    /// What the page's links are marked with: those it opens as dialogs, and with external links or user content,
    /// those that leave the site; `nil` when there is nothing to mark.
    private func linkMarks(of visit: PageVisit<R>, markdown: PageMarkdown) -> ContentHTML.LinkMarks? {
        let external = markdown.hasExternalLinks || markdown.hasUserContent
        guard external || !visit.opensAsDialog.isEmpty || !visit.goesBackTo.isEmpty else { return nil }
        var marks = ContentHTML.LinkMarks()
        marks.external = external
        marks.externalNote = Array(HTMLEscaping.escape(site.label("linkLeavesSite")).utf8)
        marks.mailNote = Array(HTMLEscaping.escape(site.label("linkOpensMail")).utf8)
        marks.dialogNote = Array(HTMLEscaping.escape(site.label("linkOpensDialog")).utf8)
        for route in visit.opensAsDialog {
            marks.dialogs.insert(Array(visit.path.relativeURL(to: visit.linkPath(to: route)).utf8))
        }
        for route in visit.goesBackTo {
            marks.backs.insert(Array(visit.path.relativeURL(to: visit.linkPath(to: route)).utf8))
        }
        return marks
    }

    /// The front page of a site whose start route lives at a path of its own: a page that leads to the start
    /// route's page at once (a refresh for browsers, a link for everyone else), kept out of search engines.
    func renderFrontPage(leadingTo start: RoutePath, title: String) throws -> [UInt8] {
        let here = RoutePath.root
        let url = here.relativeURL(to: start)
        var context = sharedContext(at: here, trail: [])
        context["title"] = .text(site.name)
        context["documentTitle"] = .text(site.name)
        context["noindex"] = .flag(true)
        context["refreshURL"] = .text(url)
        // The placeholder is left in the escaped words and the link put in its place.
        let words = HTMLEscaping.escape(site.label("startsAt"))
        let link = "<a href=\"\(HTMLEscaping.escape(url))\">\(HTMLEscaping.escape(title))</a>"
        let sentence =
            words.contains("{page}") ? words.replacingOccurrences(of: "{page}", with: link) : words + " " + link
        context["content"] = .html(Array(("<p>" + sentence + "</p>\n").utf8))
        languages?.add(to: &context, at: here)
        return try render("layout", context)
    }

    private func makeSharedContext(at here: RoutePath, inSection: (RoutePath) -> Bool) -> TemplateFrame {
        var navigation: [TemplateFrame] = []
        navigation.reserveCapacity(navigationPaths.count)
        for (label, path) in navigationPaths {
            navigation.append([
                "title": .text(label),
                "url": .text(here.relativeURL(to: path)),
                "isCurrent": .flag(path == here),
                "isSection": .flag(inSection(path))
            ])
        }
        var context: TemplateFrame = [
            "root": .text(here.rootPrefix),
            "homeURL": .text(here.relativeURL(to: .root)),
            "stylesheet": .text(here.relativeURL(toSiteFile: SiteLayout.assetsFolder + "/style.css")),
            "searchScript": .text(here.relativeURL(toSiteFile: SiteSearch<R>.script)),
            "navigation": .list(navigation),
            "favicon": .text(faviconPath.map { here.relativeURL(toSiteFile: $0) } ?? "")
        ]
        if let flowMapPath { context["flowMapURL"] = .text(here.relativeURL(toSiteFile: flowMapPath)) }
        return context
    }

    private func render(_ name: String, _ context: TemplateFrame) throws -> [UInt8] {
        guard let template = compiled[name] else {
            throw FlowSiteError(.template(name: "\(name).mustache", message: "the template is missing"))
        }
        var out: [UInt8] = []
        out.reserveCapacity(16_384)
        var stack = [siteFrame, context]
        template.render(&stack, into: &out, partials: compiled)
        return out
    }
}

/// ``PageRenderer``'s shared contexts by shape: the page's depth and, per navigation entry, the slugs shared
/// with the page's path and whether it is the page or its section. These decide every value of the context.
final class SharedContextCache: Sendable {
    struct Shape: Hashable, Sendable {
        let depth: Int
        /// A byte per navigation entry: the shared slugs, then the two flags.
        private(set) var entries: [UInt8] = []

        init(depth: Int) { self.depth = depth }

        /// Adds an entry; false when it doesn't fit in a byte (64 shared slugs or more).
        mutating func add(common: Int, isCurrent: Bool, isSection: Bool) -> Bool {
            guard common < 64 else { return false }
            entries.append(UInt8(common << 2 | (isCurrent ? 2 : 0) | (isSection ? 1 : 0)))
            return true
        }
    }

    private let contexts = Locked<[Shape: TemplateFrame]>([:])

    func context(for shape: Shape) -> TemplateFrame? { contexts.withLock { $0[shape] } }

    func keep(_ context: TemplateFrame, for shape: Shape) {
        contexts.withLock { contexts in
            // A site has few shapes; stop keeping them should there be many.
            if contexts.count < 4_096 { contexts[shape] = context }
        }
    }
}

/// A template set's templates parsed, checked and compiled, and its stylesheet checked for the 404 page. The last set
/// compiled is kept: a build compiles its set for each language, and tests and snapshot strategies for each page.
struct CompiledTemplates: Sendable {
    let sources: [String: String]
    let stylesheet: Data?
    let templates: [String: CompiledTemplate]
    let inlineStylesheet: String

    private static let last = Locked<CompiledTemplates?>(nil)

    static func of(_ set: TemplateSet) throws -> CompiledTemplates {
        if let last = last.withLock({ $0 }), last.sources == set.templates, last.stylesheet == set.assets["style.css"] {
            return last
        }
        let compiled = try CompiledTemplates(set)
        last.withLock { $0 = compiled }
        return compiled
    }

    /// swift-mustache parses each template first, for its errors' lines and columns.
    private init(_ set: TemplateSet) throws {
        var compiled: [String: CompiledTemplate] = [:]
        for (name, source) in set.templates.sorted(by: { $0.key < $1.key }) {
            do {
                _ = try MustacheTemplate(string: source)
            } catch let error as MustacheTemplate.ParserError {
                let where_ = "line \(error.context.lineNumber), column \(error.context.columnNumber)"
                throw FlowSiteError(.template(name: "\(name).mustache", message: "\(where_): \(error.error)"))
            } catch {
                throw FlowSiteError(.template(name: "\(name).mustache", message: "\(error)"))
            }
            guard let template = CompiledTemplate.compile(source) else {
                throw FlowSiteError(
                    .template(name: "\(name).mustache", message: CompiledTemplate.unsupported(in: source)))
            }
            compiled[name] = template
        }
        for required in ["layout", "404"] where compiled[required] == nil {
            throw FlowSiteError(.template(name: "\(required).mustache", message: "the template is missing"))
        }
        let stylesheet = set.assets["style.css"].map { String(decoding: $0, as: UTF8.self) } ?? ""
        // Inside <style> the text is raw: only "</style" could end it early.
        if stylesheet.lowercased().contains("</style") {
            throw FlowSiteError(
                .template(
                    name: "assets/style.css", message: "it contains \"</style\", so the 404 page cannot carry it inline"
                ))
        }
        self.sources = set.templates
        self.stylesheet = set.assets["style.css"]
        self.templates = compiled
        self.inlineStylesheet = stylesheet
    }
}
