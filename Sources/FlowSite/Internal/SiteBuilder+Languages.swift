import Foundation

/// A multilingual build: every language is walked, rendered and written into its own folder of
/// one staging folder, the root gets a page listing the languages, a 404 page, robots.txt and
/// (with a base URL) a sitemap index; every link is checked across the languages; then the whole
/// site is swapped in at once, so no reader ever sees one language new and another old.
extension SiteBuilder {
    func buildLanguages(into output: URL, started: ContinuousClock.Instant) async throws -> BuildReport {
        let coordinators = [coordinator] + otherLanguages
        let codes = coordinators.map(\.siteInfo.language)
        var seen: Set<String> = []
        for code in codes {
            guard seen.insert(code.lowercased()).inserted else { throw FlowSiteError(.languages(message: "\(code) is given twice")) }
            guard Self.isSafeFolderName(code) else {
                throw FlowSiteError(.languages(message: "\(code) can't name a folder: use a BCP 47 code such as en or es-419"))
            }
        }
        // Each language's builder and plan: its coordinator, its base URL under the site's.
        var runs: [(builder: SiteBuilder, plan: BuildPlan<C.R>)] = []
        for (index, language) in coordinators.enumerated() {
            var one = self
            one.coordinator = language
            one.otherLanguages = []
            one.baseURL = baseURL.map { $0 + codes[index] + "/" }
            var plan = try one.makePlan()
            plan.renderer.languages = SiteLanguages(codes: codes, current: index, siteBaseURL: baseURL)
            runs.append((one, plan))
        }
        // Languages that fell back are built first, so the others know which of their pages
        // are not really translated and list no alternate for them.
        let order = runs.indices.sorted { (runs[$0].builder.fallsBack ? 0 : 1, $0) < (runs[$1].builder.fallsBack ? 0 : 1, $1) }
        let staging = try SiteWriter(output: output, force: force).beginStaging()
        do {
            var checks: [(check: LinkCheckByConstruction, rootPaths: [String: String])] = []
            var untranslated: [String: Set<String>] = [:]
            var pageSets: [(code: String, pages: Set<String>)] = []
            var reports: [(pages: Int, rendered: Int, edges: Int, flow: FlowGraph, lint: FlowLintReport, warnings: [String], fallbacks: Int)] = []
            var phases: [PhaseClock] = []
            for index in order {
                var (one, plan) = runs[index]
                plan.renderer.languages?.untranslated = untranslated
                plan.renderer.languages?.combine(into: &plan.buildKey)
                let run = SiteBuild(one, plan: plan, staging: staging, folder: codes[index] + "/", started: started)
                let graph = try await run.walk()
                let (flow, lint) = try one.flowAndLint(of: graph, configuration: plan.lint, phases: run.phases)
                let builtIn = run.makeSteps(for: graph, flow: flow, lint: lint)
                let before = try await run.runSteps(builtIn.pipeline + one.steps, in: builtIn.context, pages: graph.routes.count)
                checks.append(try run.linkCheck(stepsFrom: before))
                let fellBack = run.untranslatedPages
                if !fellBack.isEmpty { untranslated[codes[index]] = fellBack }
                pageSets.append((codes[index], Set(graph.routes.map(\.path.file))))
                reports.append((graph.routes.count, run.rendered, graph.edgeCount, flow, lint, graph.recovered.map { "\(codes[index]): \($0.route): \($0.error)" }, fellBack.count))
                phases.append(run.phases)
            }
            try Self.requireSamePages(pageSets)
            let rootStart = staging.fileCount
            try writeRoot(into: staging, codes: codes, renderer: runs[0].plan.renderer)
            // Every language's links, and the root's, against every file of the whole site.
            let files = staging.paths
            var links = LinkChecker.Result()
            for (check, rootPaths) in checks {
                let result = try check.run(files: files, rootPaths: rootPaths)
                links.broken += result.broken
                links.internalReferences += result.internalReferences
            }
            let rootPages = staging.paths(since: rootStart).filter { $0.hasSuffix(".html") }
            let rootPath = SiteLanguages.rootPath(of: baseURL) ?? "/"
            let rootResult = try LinkChecker().check(files: files, only: Set(rootPages), rootPaths: ["404.html": rootPath]) {
                String(decoding: try Data(contentsOf: staging.folder.appendingPathComponent($0)), as: UTF8.self)
            }
            links.broken += rootResult.broken
            links.internalReferences += rootResult.internalReferences
            if !links.broken.isEmpty { throw FlowSiteError(.brokenLinks(links.broken.map { ($0.page, $0.link) })) }
            let pages = reports.reduce(0) { $0 + $1.pages }
            let (written, unchanged, totalBytes) = (staging.fileCount, staging.unchangedCount, staging.totalBytes)
            let first = reports[order.firstIndex(of: 0)!]
            try staging.commit(inputs: inputs, pages: pages, lint: (first.lint.active.count, first.lint.summaryLine))
            var timings: [String: Double] = [:]
            var phaseOrder: [String] = []
            for clock in phases {
                for (phase, seconds) in clock.seconds {
                    if timings[phase] == nil { phaseOrder.append(phase) }
                    timings[phase, default: 0] += seconds
                }
            }
            let edges = reports.reduce(0) { $0 + $1.edges }
            var report = BuildReport(
                pages: pages, rendered: reports.reduce(0) { $0 + $1.rendered }, edges: edges, links: edges + links.internalReferences,
                files: written, bytes: totalBytes, unchangedFiles: unchanged, warnings: reports.flatMap(\.warnings),
                duration: ContinuousClock.now - started, timings: phaseOrder.map { ($0, timings[$0]!) }, sitemap: baseURL != nil,
                flow: first.flow, flowLint: first.lint
            )
            // `reports` are in build order; the report lists the languages in the order given.
            report.languages = runs.indices.map { (codes[$0], reports[order.firstIndex(of: $0)!].fallbacks) }
            return report
        } catch {
            staging.discard()
            throw error
        }
    }

    /// Whether `code` is a plain BCP 47 code that can name a folder: letters, digits, hyphens.
    static func isSafeFolderName(_ code: String) -> Bool {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-")
        return !code.isEmpty && code.count <= 35 && code.first != "-" && code.allSatisfy(allowed.contains)
    }

    /// Fails unless every language has exactly the same pages: each page's switcher leads to
    /// the same path in every other language.
    static func requireSamePages(_ sets: [(code: String, pages: Set<String>)]) throws {
        guard let first = sets.first else { return }
        for other in sets.dropFirst() where other.pages != first.pages {
            if let page = first.pages.subtracting(other.pages).sorted().first {
                throw FlowSiteError(.languages(message: "\(first.code)/\(page) has no page in \(other.code) (the app's walk differs between them)"))
            }
            if let page = other.pages.subtracting(first.pages).sorted().first {
                throw FlowSiteError(.languages(message: "\(other.code)/\(page) has no page in \(first.code) (the app's walk differs between them)"))
            }
        }
    }

    /// The root of a multilingual site: `index.html`, a plain page (no script) listing the
    /// languages, each link in its own language; `404.html`, the same list under the default
    /// language's 404 page, its links from the site's root path; `robots.txt`; and with
    /// a base URL a sitemap index of the languages' sitemaps.
    func writeRoot(into staging: SiteStaging, codes: [String], renderer: PageRenderer<C.R>) throws {
        let realCodes = codes.filter { PseudoLocale(code: $0) == nil }
        let languages = SiteLanguages(codes: codes, current: 0, siteBaseURL: baseURL)
        let site = renderer.site
        let stylesheet = codes[0] + "/" + SiteWriter.assetsFolder + "/style.css"
        func page(title: String) -> String {
            var html = "<!doctype html>\n<html lang=\"\(HTMLEscaping.escape(site.language))\"\(site.isRightToLeft ? " dir=\"rtl\"" : "")>\n<head>\n"
            html += "<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
            html += "<title>\(HTMLEscaping.escape(title))</title>\n"
            for language in languages.all where !language.isPseudo {
                let url = baseURL.map { $0 + language.code + "/index.html" } ?? language.code + "/index.html"
                html += "<link rel=\"alternate\" hreflang=\"\(HTMLEscaping.escape(language.code))\" href=\"\(HTMLEscaping.escape(url))\">\n"
            }
            let home = baseURL.map { $0 + "index.html" } ?? "index.html"
            html += "<link rel=\"alternate\" hreflang=\"x-default\" href=\"\(HTMLEscaping.escape(home))\">\n"
            html += "<link rel=\"stylesheet\" href=\"\(HTMLEscaping.escape(stylesheet))\">\n</head>\n<body>\n"
            html += "<header class=\"site-header\">\n<span class=\"site-name\">\(HTMLEscaping.escape(site.name))</span>\n</header>\n"
            html += "<main id=\"content\">\n<h1>\(HTMLEscaping.escape(title))</h1>\n"
            html += "<nav class=\"languages language-list\" aria-label=\"\(HTMLEscaping.escape(site.label("languages")))\">\n<ul>\n"
            for language in languages.all {
                let direction = language.isRightToLeft ? " dir=\"rtl\"" : ""
                html += "<li><a href=\"\(HTMLEscaping.escape(language.code + "/index.html"))\" hreflang=\"\(HTMLEscaping.escape(language.code))\" lang=\"\(HTMLEscaping.escape(language.code))\"\(direction)>\(HTMLEscaping.escape(language.name))</a></li>\n"
            }
            html += "</ul>\n</nav>\n</main>\n</body>\n</html>\n"
            return html
        }
        try staging.write(page(title: site.name), to: "index.html")
        // A server shows the root's 404 page at any address: the default language's, its links
        // into that language's tree moved by its script from the whole site's root path.
        try staging.write(try renderer.renderNotFound(atSiteRoot: true), to: "404.html", fingerprint: nil)
        let robots = "User-agent: *\nAllow: /\n" + (baseURL.map { "Sitemap: \($0)sitemap.xml\n" } ?? "")
        try staging.write(robots, to: "robots.txt")
        // The pseudo-locales' pages are for testing and say noindex: their sitemaps aren't listed.
        if let index = Sitemap.index(baseURL: baseURL, folders: realCodes.map { $0 + "/" }) { try staging.write(index, to: "sitemap.xml") }
    }
}
