import FlowSiteUtilities
import Foundation

/// The one way a site is built: every language, in build order (``inBuildOrder(_:_:)``), is walked, its pages
/// made by the page step (``PageStep``) and written into one staging folder, links are checked across the whole
/// site, and it is swapped in at once (``commit(_:pages:lint:phases:stillHolds:journals:)``), so no reader sees
/// one language new and another old. An edit from the journal (`SiteBuilder+Edit.swift`) is the same pipeline
/// with fewer pages: the same loop, page step and commit, its pages taken from the journal instead of a walk.
///
/// Generic functions here use closures, not key paths or a sort of their own: either stops cross-module
/// optimisation from serialising the function, and then an app can't specialise it (or the walk) for its types.
extension SiteBuilder {
    /// Each language's builder, plan and folder (`es/`, or empty for a site of one language).
    typealias LanguagePlans = [(builder: SiteBuilder, plan: BuildPlan<C.R>, folder: String)]

    /// Each language's builder, plan and folder (the root for a site of one language).
    func languagePlans() throws -> LanguagePlans {
        if otherLanguages.isEmpty { return [(self, try makePlan(), "")] }
        let coordinators = [coordinator] + otherLanguages
        let codes = coordinators.map { $0.siteInfo.language }
        var seen: Set<String> = []
        for code in codes {
            guard seen.insert(code.lowercased()).inserted else {
                throw FlowSiteError(.languages(message: "\(code) is given twice"))
            }
            guard Self.isSafeFolderName(code) else {
                throw FlowSiteError(
                    .languages(message: "\(code) can't name a folder: use a BCP 47 code such as en or es-419"))
            }
        }
        return try coordinators.enumerated().map { index, language in
            var one = self
            one.coordinator = language
            one.otherLanguages = []
            one.baseURL = baseURL.map { $0 + codes[index] + "/" }
            var plan = try one.makePlan()
            plan.renderer.languages = SiteLanguages(codes: codes, current: index, siteBaseURL: baseURL)
            return (one, plan, codes[index] + "/")
        }
    }

    func buildSite(
        _ languages: LanguagePlans, into output: URL,
        started: ContinuousClock.Instant
    ) async throws -> BuildReport {
        let multilingual = languages.count > 1
        let codes = languages.map { String($0.folder.dropLast()) }
        let order = Self.buildOrder(languages.indices) { languages[$0].builder.fallsBack }
        let staging = try SiteBuild<C>.openStaging(for: self, output: output)
        var runs: [SiteBuild<C>] = []
        do {
            var checks: [(check: LinkCheckByConstruction, rootPaths: [String: String])] = []
            var pageSets: [(code: String, pages: Set<String>)] = []
            var built: [(graph: SiteGraph<C.R>, flow: FlowGraph, lint: FlowLintReport)] = []
            let untranslated =
                try await inBuildOrder(languages) { index, one, plan, folder in
                    let run = SiteBuild(one, plan: plan, staging: staging, folder: folder, started: started)
                    runs.append(run)
                    let graph = try await run.walk()
                    let (flow, lint) = try one.flowAndLint(of: graph, plan: plan, phases: run.phases)
                    let builtIn = run.makeSteps(for: graph, flow: flow, lint: lint)
                    let before = try await run.runSteps(
                        builtIn.pipeline + one.steps, in: builtIn.context, pages: graph.routes.count)
                    checks.append(run.linkCheck(stepsFrom: before, in: builtIn.context))
                    pageSets.append(
                        (codes[index], Set(graph.table.routes.indices.map { graph.table.path(of: $0).file })))
                    built.append((graph, flow, lint))
                    return run.untranslatedPages
                } ?? [:]
            if multilingual {
                try Self.requireSamePages(pageSets)
                checks.append(try writeRoot(into: staging, codes: codes, renderer: languages[0].plan.renderer))
            }
            // Every language's links, and the root's, against every file of the whole site.
            let phases = runs[0].phases
            var links = LinkChecker.Result()
            // Per language; the root's counted with the first built.
            var references = [Int](repeating: 0, count: runs.count)
            for (position, (check, rootPaths)) in checks.enumerated() {
                let result = try phases.measure(.linkCheck) { try check.run(in: staging.holds, rootPaths: rootPaths) }
                links.broken += result.broken
                links.internalReferences += result.internalReferences
                references[position < runs.count ? position : 0] += result.internalReferences
            }
            if !links.broken.isEmpty { throw FlowSiteError(.brokenLinks(links.broken.map { ($0.page, $0.link) })) }
            let pages = built.reduce(0) { $0 + $1.graph.routes.count }
            let edges = built.reduce(0) { $0 + $1.graph.edgeCount }
            let (written, unchanged, totalBytes) = (staging.fileCount, staging.unchangedCount, staging.totalBytes)
            let first = built[order.firstIndex(of: 0)!]
            let lint = (findings: first.lint.active.count, summary: first.lint.summaryLine)
            try commit(staging, pages: pages, lint: lint, phases: phases) {
                for (run, (one, references)) in zip(runs, zip(built, references)) {
                    run.journal?.install(
                        files: staging.forEachFingerprint, kinds: one.flow.kinds.map { $0.id },
                        edges: one.graph.edgeCount, links: one.graph.edgeCount + references)
                }
            }
            var timings: [String: Double] = [:]
            var phaseOrder: [String] = []
            for run in runs {
                for timing in run.phases.seconds {
                    if timings[timing.phase] == nil { phaseOrder.append(timing.phase) }
                    timings[timing.phase, default: 0] += timing.seconds
                }
            }
            var report = BuildReport(
                pages: pages, rendered: runs.reduce(0) { $0 + $1.rendered }, edges: edges,
                links: edges + links.internalReferences,
                files: written, bytes: totalBytes, unchangedFiles: unchanged,
                warnings: zip(order, built).flatMap { index, one in
                    one.graph.recovered.map { (multilingual ? "\(codes[index]): " : "") + "\($0.route): \($0.error)" }
                },
                duration: ContinuousClock.now - started,
                timings: phaseOrder.map { .init(phase: $0, seconds: timings[$0]!) },
                sitemap: baseURL != nil,
                flow: first.flow, flowLint: first.lint
            )
            report.languages = Self.fallbacks(in: languages, untranslated: untranslated)
            report.externalLinks = built.reduce(0) { $0 + $1.graph.externalLinkCount }
            return report
        } catch {
            staging.discard()
            for run in runs { run.journal?.discard() }
            throw error
        }
    }

    /// Runs `body` for each language in build order (see ``buildOrder(_:fallsBack:)``), each plan knowing which
    /// pages of the languages before it fell back to another language. `body` returns its own pages that did, or
    /// `nil` to stop; then this returns `nil`, else each language's pages that fell back. A full build and an edit
    /// both go through it.
    func inBuildOrder(
        _ languages: LanguagePlans,
        _ body: (_ index: Int, _ builder: SiteBuilder, _ plan: BuildPlan<C.R>, _ folder: String) async throws
            -> Set<String>?
    ) async throws -> [String: Set<String>]? {
        var untranslated: [String: Set<String>] = [:]
        for index in Self.buildOrder(languages.indices, fallsBack: { languages[$0].builder.fallsBack }) {
            var (one, plan, folder) = languages[index]
            plan.renderer.languages?.untranslated = untranslated
            plan.renderer.languages?.combine(into: &plan.buildKey)
            guard let fellBack = try await body(index, one, plan, folder) else { return nil }
            if !fellBack.isEmpty { untranslated[String(folder.dropLast())] = fellBack }
        }
        return untranslated
    }

    /// The end every build shares, full or edit: the app's last look at the staging folder (``beforeCommit``),
    /// `stillHolds` asked once more, the swap, then `journals` put in place beside the new site. Returns `false`,
    /// having discarded nothing, when `stillHolds` says no.
    @discardableResult
    func commit(
        _ staging: SiteStaging, pages: Int, lint: (findings: Int, summary: String)?, phases: PhaseClock,
        stillHolds: () -> Bool = { true }, journals: () -> Void
    ) throws -> Bool {
        try beforeCommit(staging)
        guard stillHolds() else { return false }
        progress?(.init(phase: "swap", made: pages, discovered: pages))
        try phases.measure(.swap) { try staging.commit(inputs: inputs, pages: pages, lint: lint) }
        // A journal that can't be put in place is left behind by the new manifest: the next build walks in full.
        phases.measure(.swap, journals)
        return true
    }

    /// Each language's count of pages that fell back, in the order given; none for a site of one language.
    static func fallbacks(
        in languages: LanguagePlans,
        untranslated: [String: Set<String>]
    ) -> [BuildReport.Language] {
        guard languages.count > 1 else { return [] }
        return languages.map { language in
            let code = String(language.folder.dropLast())
            return BuildReport.Language(code: code, fallbackPages: untranslated[code]?.count ?? 0)
        }
    }

    /// Those that fall back first, so the others know which pages aren't really translated and list no alternate.
    static func buildOrder<T>(_ languages: some Collection<T>, fallsBack: (T) -> Bool) -> [T] {
        languages.filter(fallsBack) + languages.filter { !fallsBack($0) }
    }

    /// Letters, digits, hyphens.
    static func isSafeFolderName(_ code: String) -> Bool {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-")
        return !code.isEmpty && code.count <= 35 && code.first != "-" && code.allSatisfy(allowed.contains)
    }

    /// Every language must have the same pages: the switcher leads to the same path in each.
    static func requireSamePages(_ sets: [(code: String, pages: Set<String>)]) throws {
        guard let first = sets.first else { return }
        for other in sets.dropFirst() where other.pages != first.pages {
            if let page = first.pages.subtracting(other.pages).sorted().first {
                throw FlowSiteError(
                    .languages(
                        message:
                            "\(first.code)/\(page) has no page in \(other.code) (the app's walk differs between them)"))
            }
            if let page = other.pages.subtracting(first.pages).sorted().first {
                throw FlowSiteError(
                    .languages(
                        message:
                            "\(other.code)/\(page) has no page in \(first.code) (the app's walk differs between them)"))
            }
        }
    }

    /// A multilingual site's root: a script-free `index.html` listing the languages, the default language's
    /// `404.html`, `robots.txt`, and with a base URL a sitemap index. Returns the link check of its two pages.
    func writeRoot(
        into staging: SiteStaging, codes: [String], renderer: PageRenderer<C.R>
    ) throws -> (check: LinkCheckByConstruction, rootPaths: [String: String]) {
        let realCodes = codes.filter { PseudoLocale(code: $0) == nil }
        let languages = SiteLanguages(codes: codes, current: 0, siteBaseURL: baseURL)
        let site = renderer.site
        let stylesheet = codes[0] + "/" + SiteLayout.assetsFolder + "/style.css"
        func page(title: String) -> String {
            var html = """
                <!doctype html>\n<html lang="\(HTMLEscaping.escape(site.language))"\
                \(site.isRightToLeft ? " dir=\"rtl\"" : "")>\n<head>\n
                """
            html +=
                "<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
            html += "<title>\(HTMLEscaping.escape(title))</title>\n"
            for language in languages.all where !language.isPseudo {
                let url = baseURL.map { $0 + language.code + "/index.html" } ?? language.code + "/index.html"
                html += """
                    <link rel="alternate" hreflang="\(HTMLEscaping.escape(language.code))" \
                    href="\(HTMLEscaping.escape(url))">\n
                    """
            }
            let home = baseURL.map { $0 + "index.html" } ?? "index.html"
            html += "<link rel=\"alternate\" hreflang=\"x-default\" href=\"\(HTMLEscaping.escape(home))\">\n"
            html += "<link rel=\"stylesheet\" href=\"\(HTMLEscaping.escape(stylesheet))\">\n</head>\n<body>\n"
            html += """
                <header class="site-header">\n<span class="site-name">\(HTMLEscaping.escape(site.name))</span>\n\
                </header>\n
                """
            html += "<main id=\"content\">\n<h1>\(HTMLEscaping.escape(title))</h1>\n"
            html += """
                <nav class="languages language-list" aria-label="\(HTMLEscaping.escape(site.label("languages")))">\n\
                <ul>\n
                """
            for language in languages.all {
                let direction = language.isRightToLeft ? " dir=\"rtl\"" : ""
                html += """
                    <li><a href="\(HTMLEscaping.escape(language.code + "/index.html"))" \
                    hreflang="\(HTMLEscaping.escape(language.code))" lang="\(HTMLEscaping.escape(language.code))"\
                    \(direction)>\(HTMLEscaping.escape(language.name))</a></li>\n
                    """
            }
            html += "</ul>\n</nav>\n</main>\n</body>\n</html>\n"
            return html
        }
        let index = Array(page(title: site.name).utf8)
        try staging.write(index, to: "index.html", fingerprint: nil)
        // Shown at any address: the default language's, its script moving links from the site's root path.
        let notFound = try renderer.renderNotFound(atSiteRoot: true)
        try staging.write(notFound, to: "404.html", fingerprint: nil)
        let robots = "User-agent: *\nAllow: /\n" + (baseURL.map { "Sitemap: \($0)sitemap.xml\n" } ?? "")
        try staging.write(robots, to: "robots.txt")
        // Pseudo-locales' pages say noindex: their sitemaps aren't listed.
        if let index = Sitemap.index(baseURL: baseURL, folders: realCodes.map { $0 + "/" }) {
            try staging.write(index, to: "sitemap.xml")
        }
        var check = LinkCheckByConstruction()
        check.samples = [("index.html", index), ("404.html", notFound)]
        return (check, ["404.html": SiteLanguages.rootPath(of: baseURL) ?? "/"])
    }
}
