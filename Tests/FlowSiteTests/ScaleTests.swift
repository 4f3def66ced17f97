import FlowSiteUtilities
import Foundation
import PropertyBased
import Testing

@testable import FlowSite

/// The shortcuts that make large sites fast and small must give the bytes the plain way gives.
@Suite struct ScaleTests {
    // MARK: One cmark call per page

    /// The page's chunks converted one by one, the plain way.
    func chunkByChunk(_ markdown: PageMarkdown) throws -> [UInt8] {
        var out: [UInt8] = []
        for chunk in markdown.chunks {
            var fragment: [UInt8] = []
            try CommonMark.appendHTML(of: markdown.bytes[chunk.range], to: &fragment)
            if let style = chunk.style {
                let element = ContentHTML.startsWithHeading(fragment[...]) ? "section" : "div"
                out += Array("<\(element) class=\"\(style.name)\">\n".utf8) + fragment + Array("</\(element)>\n".utf8)
            } else {
                out += fragment
            }
        }
        return out
    }

    func markdown(_ document: MarkdownDocument<Node>) -> PageMarkdown {
        document.pageMarkdown(
            linking: { route, out in out += Array(route.path.file.utf8) },
            siteFile: { path, out in out += Array(path.utf8) })
    }

    @Test func oneCallGivesWhatEachChunkAloneGives() throws {
        var document = MarkdownDocument<Node>()
        document.paragraph("Intro")
        // Two lists in a row, in different chunks: joined naively they would merge into one.
        document.list([["one"], ["two"]])
        document.section(.attributes) { $0.attributes([("Height", "172"), ("Mass", "77")]) }
        document.section(.related) { $0.list([[.link("Leia", to: "characters/leia")]]) }
        document.section(.cards) { _ in } // empty: a chunk with no Markdown
        document.section(.notice) { $0.paragraph(.text("Line"), .lineBreak) }
        document.thematicBreak()
        document.section(.related) {
            $0.heading("Films")
            $0.orderedList([["A"], [.emphasis(["B"])]])
        }
        let page = markdown(document)
        var once: [UInt8] = []
        try ContentHTML.append(page, to: &once)
        let plain = try chunkByChunk(page)
        #expect(String(decoding: once, as: UTF8.self) == String(decoding: plain, as: UTF8.self))
        #expect(String(decoding: once, as: UTF8.self).contains("<section class=\"related\">\n<h2>Films</h2>"))
    }

    @Test func hostileTextNeverShiftsTheChunks() async throws {
        await propertyCheck(count: 300, input: MarkdownEscapingTests.hostileText().array(of: 1...6)) { texts in
            var document = MarkdownDocument<Node>()
            for (index, text) in texts.enumerated() {
                if index.isMultiple(of: 2) {
                    document.section(.related) { $0.list([[.text(text)], [.link(text, to: "x")]]) }
                } else {
                    document.paragraph(.text(text), .lineBreak)
                }
            }
            let page = markdown(document)
            var once: [UInt8] = []
            try ContentHTML.append(page, to: &once)
            #expect(once == (try chunkByChunk(page)), "input \(texts.debugDescription)")
        }
    }

    @Test func aPageOfMegabytesIsConvertedChunkByChunkToTheSameHTML() throws {
        var document = MarkdownDocument<Node>()
        document.paragraph("Film")
        document.section(.related) { section in
            section.heading("Characters")
            section.linkList(0..<40_000) { (label: "Person \($0)", route: Node("characters/person-\($0)")) }
        }
        document.section(.related) { $0.list([["Tatooine"], ["Alderaan"]]) }
        let page = markdown(document)
        #expect(page.bytes.count >= ContentHTML.chunkByChunkSize)
        var html: [UInt8] = []
        try ContentHTML.append(page, to: &html)
        #expect(html == (try chunkByChunk(page)))
        // The same document below the size converts in one call and agrees with itself.
        #expect(
            String(decoding: html, as: UTF8.self).contains(
                "<li><a href=\"characters/person-39999/index.html\">Person 39999</a></li>\n</ul>\n</section>"))
    }

    // MARK: The byte escaper

    @Test func theByteEscaperWritesWhatTheScalarEscaperWrites() async {
        let edges: [Unicode.Scalar] = [
            0x7F, 0x80, 0x9F, 0xA0, 0xB7, 0xFDCF, 0xFDD0, 0xFDEF, 0xFDF0, 0xFFFD, 0xFFFE, 0xFFFF,
            0x1FFFD, 0x1FFFE, 0x2FFFF, 0x10FFFE, 0x10FFFF
        ].map { Unicode.Scalar($0 as UInt32)! }
        let scalar = Gen<UnicodeScalar>.frequency(
            (3, Gen.element(of: edges).map { $0! }),
            (3, MarkdownEscapingTests.hostileText().map { $0.unicodeScalars.first ?? "a" })
        )
        await propertyCheck(count: 3000, input: scalar.array(of: 0...12)) { scalars in
            let text = String(String.UnicodeScalarView(scalars))
            var bytes: [UInt8] = []
            HTMLEscaping.append(text, to: &bytes)
            #expect(bytes == Array(HTMLEscaping.escape(text).utf8), "input \(text.debugDescription)")
        }
    }

    // MARK: Lists of plain links

    @Test func aListOfPlainLinksWritesWhatTheGeneralListWrites() async throws {
        await propertyCheck(count: 500, input: MarkdownEscapingTests.hostileText().array(of: 1...5)) { labels in
            var compact = MarkdownDocument<Node>()
            compact.list(labels.enumerated().map { [.link($1, to: Node("n\($0)"))] })
            var viaElements = MarkdownDocument<Node>()
            viaElements.linkList(Array(labels.enumerated())) { (label: $1, route: Node("n\($0)")) }
            // An empty text after each link keeps the list on the general path.
            var general = MarkdownDocument<Node>()
            general.list(labels.enumerated().map { [.link($1, to: Node("n\($0)")), .text("")] })
            let url: (Node) -> String = { $0.path.file }
            #expect(
                compact.markdown(linking: url) == general.markdown(linking: url), "labels \(labels.debugDescription)")
            #expect(viaElements.markdown(linking: url) == general.markdown(linking: url))
            #expect(compact.linkedRoutes == general.linkedRoutes)
            #expect(compact.linkLabels == general.linkLabels)
        }
    }

    @Test func linksInsideALinkLabelAreTextAndNotFollowed() {
        var document = MarkdownDocument<Node>()
        document.paragraph(.link([.text("Outer "), .link("inner", to: "hidden")], "shown"))
        #expect(document.linkedRoutes == ["shown"])
        #expect(document.markdown(linking: { $0.path.file }) == "[Outer inner](shown/index.html)\n")
    }

    // MARK: The search index

    @Test func theSearchIndexIsValidJSONWhateverTheTitles() throws {
        let titles = [
            "Quote \" here", "Back\\slash", "Tab\tand\nnewline", "Bell\u{07} and \u{1F}", "Ünïcödé ✓", "Slash / kept",
            ""
        ]
        let pages = titles.enumerated().map {
            BuildStep.BuiltPage(path: "p\($0)/index.html", title: $1, summary: "About \($1)", isDialog: false)
        }
        let entries = titles.indices.map {
            SiteSearch<Node>.Entry(page: Int32($0), section: $0.isMultiple(of: 2) ? "Even" : nil, title: titles[$0])
        }
        let bytes = SiteSearch<Node>.json(entries, pages: pages, summaries: true)
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [[String: String]])
        #expect(Set(parsed.compactMap { $0["title"] }) == Set(titles))
        #expect(parsed.allSatisfy { $0["summary"] == "About \($0["title"]!)" })
        #expect(parsed.filter { $0["section"] == "Even" }.count == 4)
        #expect(String(decoding: bytes, as: UTF8.self).contains(#""url":"p6/index.html""#)) // "/" not escaped
        // Sorted by folded title, then URL.
        let folded = parsed.map {
            $0["title"]!.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
        }
        #expect(folded == folded.sorted())
        let without = SiteSearch<Node>.json(entries, pages: pages, summaries: false)
        #expect(!String(decoding: without, as: UTF8.self).contains("summary"))
    }

    // MARK: Ordering pages without their paths

    /// An ASCII title's sort key is its lower case, which is what Foundation's folding gives.
    @Test func asciiTitlesFoldToTheirLowerCase() async {
        let ascii = Gen<UnicodeScalar>.unicodeScalar(in: "\u{0}"..."\u{7F}").array(of: 0...30).map {
            String(String.UnicodeScalarView($0))
        }
        await propertyCheck(count: 3000, input: ascii) { title in
            #expect(
                SiteSearch<Node>.Entry.sortKey(of: title)
                    == title.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil))
        }
        #expect(SiteSearch<Node>.Entry.sortKey(of: "Ébène Ǆ") == "ebene ǆ")
    }

    @Test func pageFilesSortAsTheirRoutePathsDo() async {
        let slug = Gen.element(of: ["a", "b", "a-b", "ab", "a0", "z", "page", "2", "10"]).map { $0! }
        await propertyCheck(count: 500, input: slug.array(of: 0...3).array(of: 2...8)) { paths in
            let routes = paths.map { RoutePath($0.map { Slug($0) }) }
            let byPath = routes.sorted().map(\.file)
            let byFile = routes.map(\.file).sorted { SiteBuilder<GraphCoordinator>.pathPrecedes($0, $1) }
            #expect(byPath == byFile, "paths \(paths)")
        }
    }

    // MARK: Compact tables

    @Test func theIndexTableFindsEveryIndexEvenWhenHashesCollide() {
        var table = IndexTable()
        let names = (0..<5_000).map { "route-\($0)" }
        for (index, name) in names.enumerated() {
            // Every tenth shares a hash with its neighbour, so matching must look past the hash.
            table.insert(index, hash: index % 10 == 0 ? 7 : name.hashValue)
        }
        for (index, name) in names.enumerated() {
            let hash = index % 10 == 0 ? 7 : name.hashValue
            #expect(table.find(hash: hash) { names[$0] == name } == index)
        }
        #expect(table.find(hash: "missing".hashValue) { names[$0] == "missing" } == nil)
        #expect(table.count == names.count)
    }

    @Test func theManifestReadsBackWhatItWrote() throws {
        var files: [String: SiteManifest.Entry] = [:]
        for index in 0..<200 {
            var hash = StableHash()
            hash.combine(index)
            files["folder \(index)/with space/index.html"] = SiteManifest.Entry(
                fingerprint: hash, size: index * 3, inode: UInt64(index) << 40,
                modified: timespec(tv_sec: 1_700_000_000 + index, tv_nsec: index * 7)
            )
        }
        // Inodes past Int.max and times before 1970 are written with a sign and read back.
        for (index, inode) in [UInt64.max, 1 << 63, 0].enumerated() {
            files["edge \(index)/index.html"] = SiteManifest.Entry(
                fingerprint: StableHash(a: UInt64(index), b: .max), size: 0, inode: inode,
                modified: timespec(tv_sec: index == 0 ? Int.min : -index, tv_nsec: 999_999_999)
            )
        }
        let manifest = SiteManifest(inputs: "abc", pages: 200, files: files)
        let read = try #require(SiteManifest(bytes: manifest.bytes()))
        #expect(read.inputs == "abc")
        #expect(read.pages == 200)
        #expect(read.files == files)
        #expect(SiteManifest(text: manifest.text())?.files == files)
        // A damaged line makes the whole manifest unusable, so the build renders everything.
        #expect(SiteManifest(text: "manifest 1\nf 12zz 1 2 3 4 x\n") == nil)
        #expect(SiteManifest(text: "f \(String(repeating: "0", count: 32)) 1 2 3 4 x\n") == nil)
        // A number too large for 64 bits is damage too, not a crash.
        let zeros = String(repeating: "0", count: 32)
        #expect(SiteManifest(text: "manifest 1\nf \(zeros) 99999999999999999999 2 3 4 x\n") == nil)
        #expect(SiteManifest(text: "manifest 1\nf \(zeros) 1 9223372036854775808 3 4 x\n") == nil)
        #expect(
            SiteManifest(text: "manifest 1\nf \(zeros) 1 -9223372036854775808 3 4 x\n")?.files["x"]?.inode == 1 << 63)
        for number in [0, 7, -7, 10, 1_000_000, .max, .min, Int.max - 1, Int.min + 1] {
            var out: [UInt8] = []
            SiteManifest.appendDecimal(number, to: &out)
            #expect(String(decoding: out, as: UTF8.self) == String(number))
        }
    }

    /// The indexes and the manifest are written a piece at a time: the file and its fingerprint
    /// are the ones writing it whole gives, however the pieces fall.
    @Test func filesWrittenInPiecesHaveTheBytesAndHashOfTheWhole() throws {
        var generator = SystemRandomNumberGenerator()
        for length in [0, 1, 7, 8, 9, 63, 64, 1_000, 70_001] {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            var whole = StableHash()
            whole.combine(bytes)
            var pieces = StableHash.Pieces()
            var start = 0
            while start < length {
                let end = min(length, start + Int.random(in: 0...20, using: &generator))
                bytes[start..<end].withUnsafeBytes { pieces.add($0) }
                start = end
            }
            #expect(pieces.finish() == whole, "\(length) bytes")
            #expect(pieces.count == length)
        }

        // A manifest of more than a megabyte, so it is written in several pieces.
        var files: [String: SiteManifest.Entry] = [:]
        for index in 0..<12_000 {
            files["kind-\(index % 5)/a-page-with-a-long-slug-\(index)/index.html"] = SiteManifest.Entry(
                fingerprint: StableHash(a: UInt64(index), b: 7), size: index, inode: UInt64(index) << 20,
                modified: timespec(tv_sec: index, tv_nsec: index)
            )
        }
        var manifest = SiteManifest(inputs: "abc", pages: 12_000, files: files)
        manifest.lint = (findings: 3, summary: "3 warnings")
        let whole = manifest.bytes()
        #expect(whole.count > 1 << 20)
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("manifest-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: url) }
        // As a staging writes it: from its files in the order they were written, one of them
        // written twice (the last entry counts).
        var written = WrittenFiles()
        let again = "kind-0/a-page-with-a-long-slug-0/index.html"
        let first = written.set(
            again,
            SiteManifest.Entry(
                fingerprint: StableHash(a: 1, b: 1), size: 1, inode: 1, modified: timespec(tv_sec: 1, tv_nsec: 1)))
        #expect(first)
        for (path, entry) in files.shuffled() {
            let new = written.set(path, entry)
            #expect(new == (path != again))
        }
        #expect(written.count == files.count)
        #expect(files.allSatisfy { written[$0.key] == $0.value })
        #expect(written["kind-0/a-page-with-a-long-slug-0/index"] == nil)
        _ = try SiteStaging.writeWithoutSync(at: url.path) {
            try written.writeManifest(inputs: "abc", pages: 12_000, lint: manifest.lint, to: $0)
        }
        #expect(Array(try Data(contentsOf: url)) == whole)
    }

    /// The live site's files an edit may link are those its manifest lists differently from the
    /// spare's: found from the two manifests' lines (by a hash of each line) they are the ones
    /// found by parsing the spare's manifest and comparing entries.
    @Test func linkableFilesFromLinesAreThoseFromEntries() throws {
        var spare: [String: SiteManifest.Entry] = [:]
        var live: [String: SiteManifest.Entry] = [:]
        for index in 0..<3_000 {
            let path = "kind-\(index % 7)/page-\(index)/index.html"
            let entry = SiteManifest.Entry(
                fingerprint: StableHash(a: UInt64(index), b: 1), size: index, inode: UInt64(index + 10),
                modified: timespec(tv_sec: index, tv_nsec: 5))
            if index % 11 != 0 { spare[path] = entry }
            switch index % 13 {
            case 0:
                live[path] = SiteManifest.Entry(
                    fingerprint: StableHash(a: UInt64(index), b: 2), size: index, inode: UInt64(index + 10),
                    modified: entry.modified)
            case 1:
                live[path] = SiteManifest.Entry(
                    fingerprint: entry.fingerprint, size: index, inode: UInt64(index + 99_999), modified: entry.modified
                )
            case 2: break
            default: live[path] = entry
            }
        }
        let spareManifest = SiteManifest(inputs: "x", pages: 1, files: spare)
        var liveManifest = SiteManifest(inputs: "x", pages: 1, files: live)
        liveManifest.lint = (findings: 2, summary: "2 warnings")
        let byEntries = try #require(
            SiteManifest.linkableFiles(liveManifest.bytes(), besides: FileTable(manifest: spareManifest.bytes())))
        let byLines = try #require(
            SiteManifest.linkableFiles(liveManifest.bytes(), besidesLinesOf: spareManifest.bytes()))
        #expect(byLines == byEntries)
        #expect(byLines.count > 300 && byLines.count < live.count / 2)
        // Each linkable file is found by its path, with the live entry.
        for (path, entry) in live where spare[path] != entry { #expect(byLines[path] == entry, "\(path)") }
        for (path, entry) in live where spare[path] == entry { #expect(byLines[path] == nil, "\(path)") }
        #expect(byLines.lint?.summary == "2 warnings")
        #expect(
            SiteManifest.linkableFiles(Array("not a manifest\n".utf8), besidesLinesOf: spareManifest.bytes()) == nil)
    }

    /// The spare's table compares 128 bits of a path's hash: a path that shares only the first
    /// 64 with one of its paths is not in it (the build would keep that entry's file without a
    /// look). The live site's table, whose finds are checked against the file, compares 64.
    @Test func anExactTableTellsApartPathsThatShareHalfTheirHash() {
        let entry = SiteManifest.Entry(
            fingerprint: StableHash(a: 5, b: 6), size: 1, inode: 2, modified: timespec(tv_sec: 3, tv_nsec: 4))
        let stored = StableHash(a: 0x1234_5678, b: 0x9ABC)
        let otherB: UInt64 = 0x9ABD
        let lookalike = StableHash(a: stored.low ^ (otherB &* 0x9E37_79B9_7F4A_7C15), b: otherB)
        #expect(lookalike.low == stored.low && lookalike != stored)
        let exact = FileTable([(stored, entry)], exact: true)
        #expect(exact[key: stored] == entry)
        #expect(exact[key: lookalike] == nil)
        #expect(FileTable([(stored, entry)])[key: lookalike] == entry)
        // Two paths of one table that share 64 bits are both left out.
        #expect(FileTable([(stored, entry), (lookalike, entry)], exact: true)[key: stored] == nil)
    }

    /// What an edit must make up of the live site in the spare is found from the two manifests'
    /// lines: the live files whose line the spare lacks (changed or new since), and the spare's
    /// paths the live site no longer has; a file listed alike in both is neither.
    @Test func theGapIsWhatTheSpareLacksOfTheLiveSite() throws {
        var spare: [String: SiteManifest.Entry] = [:]
        var live: [String: SiteManifest.Entry] = [:]
        var (expectedMissing, expectedExtra): (Set<String>, Set<String>) = ([], [])
        for index in 0..<2_000 {
            let path = "kind-\(index % 5)/page-\(index)/index.html"
            let entry = SiteManifest.Entry(
                fingerprint: StableHash(a: UInt64(index), b: 1), size: index, inode: UInt64(index + 10),
                modified: timespec(tv_sec: index, tv_nsec: 5))
            switch index % 9 {
            case 0: // changed by the last build
                spare[path] = entry
                live[path] = SiteManifest.Entry(
                    fingerprint: StableHash(a: UInt64(index), b: 2), size: index + 1, inode: UInt64(index + 50_000),
                    modified: entry.modified)
                expectedMissing.insert(path)
            case 1: // the same bytes, another inode
                spare[path] = entry
                live[path] = SiteManifest.Entry(
                    fingerprint: entry.fingerprint, size: index, inode: UInt64(index + 90_000), modified: entry.modified
                )
                expectedMissing.insert(path)
            case 2: // new in the live site
                live[path] = entry
                expectedMissing.insert(path)
            case 3: // gone from the live site
                spare[path] = entry
                expectedExtra.insert(path)
            default:
                spare[path] = entry
                live[path] = entry
            }
        }
        // Paths with spaces, and paths that begin with another whole path.
        for (index, path) in ["a b/index.html", "a/index.html", "a", "a b", "é/index.html"].enumerated() {
            let entry = SiteManifest.Entry(
                fingerprint: StableHash(a: UInt64(index), b: 7), size: 1, inode: UInt64(index + 70_000),
                modified: timespec(tv_sec: 3, tv_nsec: 4))
            spare[path] = entry
            if index == 1 {
                expectedExtra.insert(path)
            } else if index % 2 == 0 {
                live[path] = SiteManifest.Entry(
                    fingerprint: entry.fingerprint, size: 2, inode: entry.inode, modified: entry.modified)
                expectedMissing.insert(path)
            } else {
                live[path] = entry
            }
        }
        live[SiteLayout.marker] = SiteManifest.Entry(
            fingerprint: StableHash(a: 9, b: 9), size: 64, inode: 7, modified: timespec(tv_sec: 1, tv_nsec: 2))
        expectedMissing.insert(SiteLayout.marker)
        var liveManifest = SiteManifest(inputs: "x", pages: 3, files: live)
        liveManifest.lint = (findings: 2, summary: "2 warnings")
        let gap = try #require(
            ManifestDifference(
                live: liveManifest.bytes(), spare: SiteManifest(inputs: "y", pages: 3, files: spare).bytes()))
        #expect(Set(gap.missing.map(\.path)) == expectedMissing)
        #expect(gap.missing.allSatisfy { live[$0.path] == $0.entry })
        #expect(Set(gap.extra) == expectedExtra)
        #expect(gap.fileCount == live.count - 1, "the marker is not counted")
        #expect(gap.byteCount == live.values.reduce(0) { $0 + $1.size } - 64)
        // The gap is found by walking both in path order: a manifest out of order is refused.
        var spareLines = String(decoding: SiteManifest(inputs: "y", pages: 3, files: spare).bytes(), as: UTF8.self)
            .split(separator: "\n", omittingEmptySubsequences: false)
        let firstFile = try #require(spareLines.firstIndex { $0.hasPrefix("f ") })
        spareLines.swapAt(firstFile, firstFile + 1)
        #expect(
            ManifestDifference(live: liveManifest.bytes(), spare: Array(spareLines.joined(separator: "\n").utf8)) == nil
        )
        #expect(gap.lint?.summary == "2 warnings")
        // Without a spare, every live file is missing.
        let empty = try #require(ManifestDifference(live: liveManifest.bytes(), spare: nil))
        #expect(empty.missing.count == live.count && empty.extra.isEmpty)
        #expect(ManifestDifference(live: Array("not a manifest\n".utf8), spare: nil) == nil)
        #expect(ManifestDifference(live: liveManifest.bytes(), spare: Array("f 12 not a manifest\n".utf8)) == nil)
    }

    /// The manifest an edit commits is the live one with the lines of the files it wrote
    /// written over, found by a binary search of the sorted lines: byte for byte the manifest
    /// of the new entries written in full, whichever paths change, look-alike paths included.
    @Test func aPatchedManifestIsTheWholeManifestOfTheNewEntries() throws {
        var files: [String: SiteManifest.Entry] = [:]
        let names = [
            "a", "a b", "a/b", "ab", "a/index.html", "b/index.html", "x y b/index.html", "index.html", "é/index.html",
            "z", ".flowsite"
        ]
        for (index, name) in (names + (0..<500).map { "characters/person-\($0)/index.html" }).enumerated() {
            files[name] = SiteManifest.Entry(
                fingerprint: StableHash(a: UInt64(index), b: 3), size: index * 7, inode: UInt64(index),
                modified: timespec(tv_sec: 100, tv_nsec: index))
        }
        var live = SiteManifest(inputs: "old", pages: 511, files: files)
        live.lint = (findings: 1, summary: "1 warning")
        let gap = try #require(ManifestDifference(live: live.bytes(), spare: nil))
        for (path, entry) in files { #expect(gap.liveEntry(path) == entry, "\(path)") }
        #expect(gap.liveEntry("a/") == nil && gap.liveEntry("characters/person-5") == nil && gap.liveEntry("") == nil)
        var generator = SystemRandomNumberGenerator()
        for round in 0..<20 {
            let chosen = files.keys.shuffled(using: &generator).prefix(round % 6 + 1)
            var changed: [String: SiteManifest.Entry] = [:]
            for path in chosen {
                changed[path] = SiteManifest.Entry(
                    fingerprint: StableHash(a: UInt64(round), b: 4), size: round * 1_000_003, inode: 999,
                    modified: timespec(tv_sec: 7, tv_nsec: round))
            }
            var expected = SiteManifest(inputs: "new", pages: 511, files: files.merging(changed) { $1 })
            expected.lint = live.lint
            #expect(gap.patchedManifest(inputs: "new", pages: 511, changed: changed) == expected.bytes(), "\(chosen)")
        }
        #expect(gap.patchedManifest(inputs: "new", pages: 1, changed: ["not/there.html": files["a"]!]) == nil)
    }

    /// The spare's check finds, from its manifest's lines, each file that is not the one its
    /// line describes: changed in place, replaced, removed, or made a folder.
    @Test func theSparesCheckFindsEveryFileNotAsItsLineSays() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("spare-check-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        var files: [String: SiteManifest.Entry] = [:]
        for path in [
            "index.html", "a/index.html", "a/b/index.html", "c/index.html", "c/d.html", "e/index.html", "f.css"
        ] {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(path.utf8).write(to: url)
            var status = stat()
            #expect(lstat(url.path, &status) == 0)
            files[path] = SiteManifest.Entry(
                fingerprint: StableHash(of: Array(path.utf8)), size: Int(status.st_size), inode: UInt64(status.st_ino),
                modified: FileIdentity.modificationTime(of: status))
        }
        let manifest = SiteManifest(inputs: "x", pages: 1, files: files).bytes()
        let descriptor = open(folder.path, O_RDONLY | O_DIRECTORY)
        defer { close(descriptor) }
        #expect(try #require(SiteManifest.FileCheck(manifest: manifest, of: descriptor)?.changedFiles()).isEmpty)
        let appended = try FileHandle(forWritingTo: folder.appendingPathComponent("a/index.html"))
        try appended.seekToEnd()
        try appended.write(contentsOf: Data("!".utf8))
        try appended.close()
        // another inode
        try Data("c/d.html".utf8).write(to: folder.appendingPathComponent("c/d.html"), options: .atomic)
        try FileManager.default.removeItem(at: folder.appendingPathComponent("e/index.html"))
        try FileManager.default.removeItem(at: folder.appendingPathComponent("f.css"))
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("f.css"), withIntermediateDirectories: false)
        let stale = try #require(SiteManifest.FileCheck(manifest: manifest, of: descriptor)?.changedFiles())
        #expect(Set(stale.map(\.path)) == ["a/index.html", "c/d.html", "e/index.html", "f.css"])
        #expect(stale.allSatisfy { files[$0.path] == $0.entry })
    }

    /// An edit writes its pages' new content fingerprints into the page index by finding each
    /// page's line by its path: only the line whose whole path it is changes, not one whose
    /// path ends the same way or holds it after a space; a page the index lacks means no patch.
    @Test func theEditedPagesLinesAndOnlyThoseArePatched() throws {
        func line(_ hex: Character, _ kind: String, _ path: String) -> String {
            String(repeating: hex, count: 32) + " \(kind) \(path)\n"
        }
        let index =
            "pages 1\n" + line("a", "7", "b/index.html") + line("b", "7", "a/b/index.html")
            + line("c", "12", "x y b/index.html")
            + line("d", "3", "index.html")
        let content = StableHash(a: 0x0123_4567_89AB_CDEF, b: 0x1122_3344_5566_7788)
        var hex: [UInt8] = []
        content.appendHex(to: &hex)
        let patched = try #require(
            PageIndex.patched(Array(index.utf8), contents: ["b/index.html": content]))
        let expected =
            "pages 1\n" + String(decoding: hex, as: UTF8.self) + " 7 b/index.html\n" + line("b", "7", "a/b/index.html")
            + line("c", "12", "x y b/index.html") + line("d", "3", "index.html")
        #expect(String(decoding: patched, as: UTF8.self) == expected)
        let root = try #require(
            PageIndex.patched(Array(index.utf8), contents: ["index.html": content]))
        #expect(
            String(decoding: root, as: UTF8.self).hasSuffix(String(decoding: hex, as: UTF8.self) + " 3 index.html\n"))
        #expect(String(decoding: root, as: UTF8.self).hasPrefix("pages 1\n" + line("a", "7", "b/index.html")))
        #expect(
            PageIndex.patched(Array(index.utf8), contents: ["y b/index.html": content])
                == nil)
        #expect(
            PageIndex.patched(Array(index.utf8), contents: ["c/index.html": content])
                == nil)
    }

    /// Writes `count` files of up to `sizes` bytes in `sections` sections under `base`, each in
    /// a folder of its own as a site's pages are; the manifest entries that describe them.
    func writeFiles(_ count: Int, sections: Int, sizes: Int, under base: URL) throws -> [String: SiteManifest.Entry] {
        var files: [String: SiteManifest.Entry] = [:]
        for index in 0..<count {
            let path = "section-\(index % sections)/a-page-with-a-rather-long-slug-\(index)/index.html"
            let url = base.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(repeating: UInt8(index % 251), count: index % sizes).write(to: url)
            var status = stat()
            #expect(stat(url.path, &status) == 0)
            files[path] = SiteManifest.Entry(
                fingerprint: StableHash(a: UInt64(index), b: 1), size: index % sizes, inode: UInt64(status.st_ino),
                modified: FileIdentity.modificationTime(of: status)
            )
        }
        return files
    }

    /// The no-change check reads the manifest's lines on several threads: every file is
    /// checked whichever thread reads its line, and one changed file, other inputs or a damaged
    /// line each mean "build".
    @Test func theNoChangeCheckSeesEveryFileOnEveryLane() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("intact-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: base) }
        let files = try writeFiles(1_500, sections: 7, sizes: 50, under: base)
        let total = files.values.reduce(0) { $0 + $1.size }
        let bytes = SiteManifest(inputs: "abc", pages: 1_500, files: files).bytes()
        #expect(bytes.count > 2 * 65_536, "long enough for two lanes")
        let folder = open(base.path, O_RDONLY | O_DIRECTORY)
        defer { close(folder) }
        // The check of the site with `manifest` as its manifest, made from `inputs`.
        func intactSite(
            _ manifest: [UInt8], inputs: String
        ) throws -> (pages: Int, files: Int, bytes: Int, sitemap: Bool, lint: (findings: Int, summary: String)?)? {
            try Data(manifest).write(to: base.appendingPathComponent(SiteLayout.manifest))
            guard let check = SiteManifest.FileCheck(mappingManifestIn: folder), check.isMade(from: inputs) else {
                return nil
            }
            return check.unchangedSite(lanes: 2)
        }
        let site = try #require(try intactSite(bytes, inputs: "abc"))
        #expect(site.pages == 1_500 && site.files == 1_500 && site.bytes == total && !site.sitemap)
        #expect(try intactSite(bytes, inputs: "abd") == nil)
        #expect(try intactSite(bytes + Array("f 12 x\n".utf8), inputs: "abc") == nil)
        // The last file sorts last, so the second lane reads it.
        let last = try #require(files.keys.sorted().last)
        try Data("changed".utf8).write(to: base.appendingPathComponent(last))
        #expect(try intactSite(bytes, inputs: "abc") == nil)
    }

    /// The no-change check answers only for the site its manifest describes: a copy of the site
    /// (every file another inode than the manifest says) is not the site, nor are other inputs.
    @Test func theNoChangeCheckAnswersOnlyForTheSiteItsManifestDescribes() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("intact-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: base) }
        let site = base.appendingPathComponent("site")
        let files = try writeFiles(300, sections: 3, sizes: 40, under: site)
        let manifest = SiteManifest(inputs: "abc", pages: 300, files: files).bytes()
        try Data(manifest).write(to: site.appendingPathComponent(SiteLayout.manifest))
        let report = try #require(SiteBuilder<GraphCoordinator>.unchangedSite(at: site, inputs: "abc"))
        #expect(report.pages == 300 && report.files == 300 && report.rendered == 0)
        #expect(SiteBuilder<GraphCoordinator>.unchangedSite(at: site, inputs: "abd") == nil)

        let copy = base.appendingPathComponent("copy")
        try FileManager.default.copyItem(at: site, to: copy)
        try FileManager.default.moveItem(at: site, to: base.appendingPathComponent("old"))
        try FileManager.default.moveItem(at: copy, to: site)
        #expect(SiteBuilder<GraphCoordinator>.unchangedSite(at: site, inputs: "abc") == nil)
    }

    /// The spare's check is cut into chunks that two threads share: whichever thread checks a
    /// chunk, the stale files found are every changed or missing file, in the manifest's order,
    /// as one thread alone finds them, and a malformed line in any chunk means "don't know".
    @Test func theSparesCheckFindsTheSameStaleFilesWhoeverTakesEachChunk() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("stale-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: base) }
        let files = try writeFiles(3_000, sections: 5, sizes: 40, under: base)
        let bytes = SiteManifest(inputs: "abc", pages: 3_000, files: files).bytes()
        #expect(bytes.count > 3 * 65_536, "long enough for several chunks")
        // Stale files in the first, a middle and the last chunk: changed, removed, changed.
        let sorted = files.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        let changed = [sorted[0], sorted[1_500], sorted[2_999]]
        try Data("changed by hand".utf8).write(to: base.appendingPathComponent(changed[0]))
        try FileManager.default.removeItem(at: base.appendingPathComponent(changed[1]))
        try Data("changed by hand".utf8).write(to: base.appendingPathComponent(changed[2]))
        let folder = open(base.path, O_RDONLY | O_DIRECTORY)
        defer { close(folder) }

        let alone = try #require(SiteManifest.FileCheck(manifest: bytes, of: folder)?.changedFiles())
        #expect(alone.map(\.path) == changed)
        #expect(alone.map(\.entry.fingerprint) == changed.map { files[$0]!.fingerprint })
        for _ in 0..<20 {
            let check = try #require(SiteManifest.FileCheck(manifest: bytes, of: folder))
            let helper = Thread { check.work() }
            helper.start()
            let shared = try #require(check.changedFiles())
            #expect(shared.map(\.path) == changed)
        }
        // The last line's size damaged: whoever reads it, the answer is "don't know".
        var damaged = bytes
        let last = try #require(damaged.dropLast().lastIndex(of: UInt8(ascii: "\n"))) + 1
        #expect(damaged[last] == UInt8(ascii: "f") && damaged[last + 34] == UInt8(ascii: " "))
        damaged[last + 35] = UInt8(ascii: "z")
        let check = try #require(SiteManifest.FileCheck(manifest: damaged, of: folder))
        Thread { check.work() }.start()
        #expect(check.changedFiles() == nil)
        #expect(SiteManifest.FileCheck(manifest: Array("f 12 x\nmanifest 1\n".utf8), of: folder) == nil)
    }

    @Test func removingATreeTakesEverythingButFollowsNoLink() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("tree-\(UUID().uuidString)")
        let outside = base.appendingPathComponent("outside")
        let tree = base.appendingPathComponent("tree")
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        try Data("keep".utf8).write(to: outside.appendingPathComponent("keep.txt"))
        for index in 0..<50 {
            let folder = tree.appendingPathComponent("a\(index)/b/c")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data("x".utf8).write(to: folder.appendingPathComponent("index.html"))
        }
        try FileManager.default.createSymbolicLink(at: tree.appendingPathComponent("link"), withDestinationURL: outside)
        try FileManager.default.createSymbolicLink(
            at: tree.appendingPathComponent("a1/b/link"), withDestinationURL: outside)
        // A link and a file right inside a top-level folder, whose entries are shared out, and
        // an empty top-level folder.
        try FileManager.default.createSymbolicLink(
            at: tree.appendingPathComponent("a2/link"), withDestinationURL: outside)
        try Data("y".utf8).write(to: tree.appendingPathComponent("a2/file.txt"))
        try FileManager.default.createDirectory(
            at: tree.appendingPathComponent("empty"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: base) }
        try SiteStaging.removeTree(at: tree.path)
        #expect(!FileManager.default.fileExists(atPath: tree.path))
        #expect(FileManager.default.fileExists(atPath: outside.appendingPathComponent("keep.txt").path))
    }
}

extension SiteManifest.Entry: CustomStringConvertible {
    public var description: String { "\(fingerprint) \(size) \(inode) \(modified.tv_sec).\(modified.tv_nsec)" }
}
