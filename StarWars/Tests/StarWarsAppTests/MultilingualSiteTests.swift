import Foundation
import SWAPI
import Testing

@testable import FlowSite
@testable import StarWarsApp

/// `holocron build --languages`: one tree per language, a switcher that keeps the reader on the
/// same screen, alternates for search engines, and text that fell back marked.
@Suite struct MultilingualSiteTests {
    static let base = "https://holocron.example/sw/"

    func build(_ languages: [Strings], baseURL: String? = base) async throws -> (URL, BuildReport) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("languages-\(UUID().uuidString)")
        let english = AppCoordinator(dependencies: .live(.archive(Fixtures.archive), strings: languages[0]))
        var builder = SiteBuilder(coordinator: english, baseURL: baseURL)
        builder.otherLanguages = languages.dropFirst().map { english.translated(into: $0) }
        let report = try await builder.build(into: folder)
        return (folder, report)
    }

    func text(_ folder: URL, _ path: String) throws -> String {
        try String(contentsOf: folder.appendingPathComponent(path), encoding: .utf8)
    }

    /// The pages (`index.html` files) under `folder`, from it.
    func pages(under folder: URL) throws -> [String] {
        let root = folder.path + "/"
        return FileManager.default.enumerator(atPath: folder.path)!.compactMap { $0 as? String }
            .filter {
                $0.hasSuffix("index.html") && !$0.hasPrefix(".")
                    && !FileManager.default.fileExists(atPath: root + $0 + "/")
            }.sorted()
    }

    /// The `href`s of the language switcher on a page.
    func switcherLinks(_ html: String) -> [(code: String, href: String)] {
        guard
            let nav = html.components(separatedBy: #"<nav class="languages""#).dropFirst().first?.components(
                separatedBy: "</nav>"
            ).first
        else { return [] }
        return nav.components(separatedBy: "<a href=\"").dropFirst().map { part in
            let href = part.components(separatedBy: "\"")[0]
            let code =
                part.components(separatedBy: "hreflang=\"").dropFirst().first?.components(separatedBy: "\"")[0] ?? ""
            return (code, href)
        }
    }

    /// `link` written on the page at `page` (both from the site root), resolved.
    func resolve(_ link: String, from page: String) -> String {
        var parts = page.split(separator: "/").dropLast().map(String.init)
        for component in link.split(separator: "/") {
            if component == ".." { parts.removeLast() } else if component != "." { parts.append(String(component)) }
        }
        return parts.joined(separator: "/")
    }

    @Test func everyLanguageHasTheSamePagesAndEverySwitcherLandsOnTheSameScreen() async throws {
        let codes = ["en", "es", "en-XA", "ar-XB"]
        let (folder, report) = try await build(try codes.map { try Strings(language: $0) })
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(report.languages.map(\.code) == codes)
        let english = try pages(under: folder.appendingPathComponent("en"))
        #expect(english.count > 20)
        #expect(report.pages > 0 && report.pages % codes.count == 0)
        for code in codes {
            #expect(try pages(under: folder.appendingPathComponent(code)) == english, "\(code) has other pages than en")
            // One search index, flow map and 404 page per language.
            for file in ["search-index.json", "flow/index.html", "404.html", "sitemap.xml"] {
                #expect(
                    FileManager.default.fileExists(atPath: folder.appendingPathComponent("\(code)/\(file)").path),
                    "\(code)/\(file)")
            }
        }
        for code in codes {
            for page in english {
                let path = "\(code)/\(page)"
                let html = try text(folder, path)
                #expect(
                    html.hasPrefix("<!doctype html>\n<html lang=\"\(code)\"\(code == "ar-XB" ? " dir=\"rtl\"" : "")>"),
                    "\(path)")
                let links = switcherLinks(html)
                #expect(links.map(\.code) == codes, "\(path) switcher: \(links.map(\.code))")
                for link in links {
                    #expect(resolve(link.href, from: path) == "\(link.code)/\(page)", "\(path): \(link.href)")
                }
            }
        }
        let spanishList = try text(folder, "es/characters/index.html")
        #expect(spanishList.hasPrefix("<!doctype html>\n<html lang=\"es\">"))
        #expect(
            try text(folder, "ar-XB/characters/index.html").hasPrefix(
                "<!doctype html>\n<html lang=\"ar-XB\" dir=\"rtl\">"))
        // Alternates for search engines: absolute, the real languages only, and x-default.
        #expect(
            spanishList.contains(#"<link rel="alternate" hreflang="en" href="\#(Self.base)en/characters/index.html">"#))
        #expect(
            spanishList.contains(#"<link rel="alternate" hreflang="es" href="\#(Self.base)es/characters/index.html">"#))
        #expect(spanishList.contains(#"<link rel="alternate" hreflang="x-default" href="\#(Self.base)index.html">"#))
        #expect(
            !spanishList.contains(#"hreflang="en-XA" href="https"#), "a pseudo-locale is no search engine's alternate")
        #expect(!(try text(folder, "en-XA/characters/index.html")).contains(#"rel="alternate""#))
        let sitemap = try text(folder, "es/sitemap.xml")
        #expect(
            sitemap.contains(
                #"<xhtml:link rel="alternate" hreflang="en" href="\#(Self.base)en/characters/index.html"/>"#))
        #expect(!sitemap.contains("en-XA"))
        // The sitemap index names the real languages' sitemaps; pseudo-locale pages say noindex.
        let index = try text(folder, "sitemap.xml")
        #expect(index.contains("<loc>\(Self.base)es/sitemap.xml</loc>") && !index.contains("ar-XB"))
        #expect(try text(folder, "ar-XB/characters/index.html").contains(#"<meta name="robots" content="noindex">"#))
        // The root lists the languages, each in its own language, with no script.
        let root = try text(folder, "index.html")
        #expect(root.contains(#"<a href="es/index.html" hreflang="es" lang="es">Español</a>"#))
        #expect(root.contains(#"hreflang="ar-XB" lang="ar-XB" dir="rtl""#))
        #expect(!root.contains("<script"))
        #expect(try text(folder, "robots.txt").contains("Sitemap: \(Self.base)sitemap.xml"))
        // The flow map speaks the page's language, counted words included.
        let map = try text(folder, "es/flow/index.html")
        #expect(map.contains("tipos de pantalla en"), "the Spanish flow map's intro")
        #expect(map.contains("<th scope=\"col\">Tipo</th>"))
        // The search script gets the language's words.
        #expect(try text(folder, "es/search/index.html").contains("Ningún resultado para"))
    }

    @Test func textThatFellBackIsMarkedAndItsPagesAreNoOnesAlternate() async throws {
        // Spanish without the films list's intro: pages that show it fall back to English.
        var table = try StringTables.compiledIn.table("es")
        let missing = Strings.Key.allCases.first { $0.rawValue == "home.link.search" }!
        var texts = table.texts
        texts[missing.rawValue] = nil
        table = StringTable(
            language: "es", file: table.file, texts: texts, settings: table.settings, lines: table.lines)
        let spanish = Strings(table, marksFallback: true)
        #expect(spanish.fallbackLanguage == "en")
        let (folder, report) = try await build([.english, spanish])
        defer { try? FileManager.default.removeItem(at: folder) }
        let fellBack = try #require(report.languages.first { $0.code == "es" }?.fallbackPages)
        #expect(fellBack >= 1)
        let home = try text(folder, "es/index.html")
        let english = Strings.english.localizedString(missing)
        #expect(home.contains(#"<p class="fallback-note">"#), "the home page shows the English text")
        #expect(home.contains("“\(english)”"), "the note names the text that fell back")
        #expect(home.contains("inglés"), "the note names the language in Spanish")
        #expect(!home.contains(#"rel="alternate""#), "an untranslated page lists no alternates")
        #expect(!(try text(folder, "en/index.html")).contains(#"hreflang="es" href="https"#))
        #expect((try text(folder, "en/index.html")).contains(#"hreflang="en" href="https"#))
        // A page that shows no fallback text is a translation like any.
        let list = try text(folder, "es/films/index.html")
        #expect(!list.contains("fallback-note"))
        #expect(list.contains(#"hreflang="es" href="\#(Self.base)es/films/index.html""#))
        #expect(
            (try text(folder, "en/films/index.html")).contains(
                #"hreflang="es" href="\#(Self.base)es/films/index.html""#))
    }

    /// A multilingual site keeps a journal per language, so an edit that changes what a page
    /// says makes that page again in each language and no other, as in a site of one language;
    /// the site is byte for byte a build from nothing of the same data.
    @Test func anEditOfAMultilingualSiteMakesOnlyItsPagesInEveryLanguage() async throws {
        let (embedded, folder, live) = try BuildJournalTests.embeddedData(folder: "languages-journal")
        var data = embedded
        defer { try? FileManager.default.removeItem(at: folder) }
        let languages = [Strings.english, try Strings(language: "es")]
        func build(into output: URL, journal: Bool) async throws -> BuildReport {
            let archive = try BuildJournalTests.archive(data)
            let english = AppCoordinator(dependencies: .live(.archive(archive), strings: languages[0]))
            var builder = SiteBuilder(coordinator: english, baseURL: Self.base)
            builder.otherLanguages = [english.translated(into: languages[1])]
            builder.journalsEdits = journal
            builder.inputFingerprints = Catalog(archive: archive).inputFingerprints()
            return try await builder.build(into: output)
        }
        let first = try await build(into: live, journal: true)
        data.people[0].height = "999"
        let edit = try await build(into: live, journal: true)
        let made = edit.pages - edit.replayed
        #expect(
            edit.replayed > 0 && made > 0 && made % 2 == 0 && made <= 8, "\(made) pages made again of \(edit.pages)")
        #expect(edit.pages == first.pages && edit.links == first.links && edit.languages.map(\.code) == ["en", "es"])
        #expect(try text(live, "es/characters/luke-skywalker/index.html").contains("999"))
        let fresh = folder.appendingPathComponent("fresh")
        _ = try await build(into: fresh, journal: false)
        #expect(try SiteDifference.files(in: live) == (try SiteDifference.files(in: fresh)))
    }

    @Test func aLanguageGivenTwiceFailsAndLeavesNothingBehind() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("languages-\(UUID().uuidString)")
        let english = AppCoordinator(dependencies: .live(.archive(Fixtures.archive)))
        var builder = SiteBuilder(coordinator: english)
        builder.otherLanguages = [english.translated(into: try Strings(language: "es")), english]
        await #expect(throws: FlowSiteError.self) { try await builder.build(into: folder) }
        #expect(!FileManager.default.fileExists(atPath: folder.path))
    }
}
