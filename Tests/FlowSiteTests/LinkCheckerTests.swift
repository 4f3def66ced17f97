import Testing

@testable import FlowSite

@Suite struct LinkCheckerTests {
    let files: Set<String> = ["index.html", "a/index.html", "a/b/index.html", "assets/style.css", "search/index.json"]
    let checker = LinkChecker()

    @Test(arguments: [
        ("a/b/index.html", "../../index.html", true),
        ("a/b/index.html", "../index.html", true),
        ("a/b/index.html", "../../assets/style.css", true),
        ("a/b/index.html", "../../../index.html", false), // climbs out of the site
        ("a/b/index.html", "../../a/", true),
        ("index.html", "a/b/index.html#top", true),
        ("index.html", "a/b/index.html?q=1", true),
        ("index.html", "#content", true),
        ("index.html", "https://example.com/x", true),
        ("index.html", "mailto:someone@example.com", true),
        ("index.html", "/a/index.html", false), // root-relative breaks under a subpath
        ("index.html", "missing/index.html", false),
        ("index.html", "./", true),
        ("index.html", "search/index.json", true)
    ])
    func resolves(page: String, link: String, ok: Bool) {
        #expect(checker.resolves(link, from: page, in: files) == ok)
    }

    @Test func listsEveryBrokenLinkWithItsPage() throws {
        let pages = [
            "index.html": #"<a href="a/index.html">a</a> <a href="nope/index.html">x</a>"#,
            "a/index.html": #"<link rel="stylesheet" href="../assets/missing.css"><img src="../assets/style.css">"#
        ]
        let broken = checker.brokenLinks(files: Set(pages.keys)) { pages[$0]! }
        #expect(
            broken == [
                BrokenLink(page: "a/index.html", link: "../assets/missing.css"),
                BrokenLink(page: "a/index.html", link: "../assets/style.css"),
                BrokenLink(page: "index.html", link: "nope/index.html")
            ])
    }

    @Test func countsInternalReferencesButNotExternalOnes() throws {
        let pages = [
            "index.html":
                ##"<a href="a/index.html">a</a> <a href="https://swapi.dev/">api</a> <a href="#top">top</a>"##,
            "a/index.html": #"<a href="../index.html">home</a> <a href="mailto:x@example.com">mail</a>"#
        ]
        let result = checker.check(files: Set(pages.keys)) { pages[$0]! }
        #expect(result.internalReferences == 2)
        #expect(result.broken.isEmpty)
    }
}
