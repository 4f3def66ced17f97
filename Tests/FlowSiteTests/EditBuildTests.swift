import FlowSiteUtilities
import Foundation
import Testing

@testable import FlowSite

/// An edit built from the journal the last build kept beside the site (the way `build` and
/// `serve --watch` rebuild) makes only the pages it reaches, and the site is the one a build
/// from nothing makes.
@Suite struct EditBuildTests {
    static let app = SiteBuilderTests.app

    /// Builds `app`, with `others` as its other languages.
    @discardableResult
    func build(
        _ app: GraphCoordinator, into output: URL, journal: Bool = true, templates: TemplateSet = .embedded,
        others: [GraphCoordinator] = []
    ) async throws -> BuildReport {
        var builder = SiteBuilder(coordinator: app, templates: templates)
        builder.otherLanguages = others
        builder.journalsEdits = journal
        builder.inputFingerprints = app.inputFingerprints
        return try await builder.build(into: output)
    }

    func fresh(_ app: GraphCoordinator, in folder: URL, others: [GraphCoordinator] = []) async throws -> [String: Data]
    {
        let output = folder.appendingPathComponent("fresh-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: output) }
        try await build(app, into: output, journal: false, others: others)
        return try SiteDifference.files(in: output)
    }

    /// `app` in Spanish.
    static func spanish(_ app: GraphCoordinator) -> GraphCoordinator {
        var spanish = app
        spanish.language = "es"
        return spanish
    }

    /// An edit to what one page says (not its title or links) moves no page: that page is made
    /// again in its place, the app is not walked, and the search index follows. The next edit
    /// starts from the journal the edit wrote.
    @Test func anEditThatMovesNoLinkRemakesItsPageWithoutAWalk() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("site")
        var app = Self.app
        app.search = SiteSearch(summaries: true)
        let first = try await build(app, into: output)
        #expect(first.replayed == 0)
        app.summaries["a/b"] = "A summary written since"
        let edit = try await build(app, into: output)
        #expect(edit.rendered == 1 && edit.replayed == edit.pages - 1, "\(edit)")
        #expect(try SiteDifference.files(in: output) == (try await fresh(app, in: folder)))
        let index = try String(contentsOf: output.appendingPathComponent("search-index.json"), encoding: .utf8)
        #expect(index.contains("A summary written since"))
        app.summaries["a/b"] = nil
        app.summaries["a"] = "The own summary of a"
        let next = try await build(app, into: output)
        #expect(next.rendered == 2 && next.replayed == next.pages - 2, "\(next)")
        #expect(try SiteDifference.files(in: output) == (try await fresh(app, in: folder)))
    }

    /// A tab's root that the app also shows as a dialog has two pages, and an edit of it makes
    /// both again, each in its place: the dialog keeps its Close link.
    @Test func anEditOfATabRootShownAsADialogRemakesBothItsPages() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("site")
        var app = GraphCoordinator(
            links: ["": ["a"], "a": ["s", "b"], "s": ["b"]], presentations: ["s": .modal],
            navigation: [NavigationAction("Sign in", to: "s")]
        )
        let first = try await build(app, into: output)
        #expect(first.pages == 5, "\(first)")
        let dialog = output.appendingPathComponent("s/dialog/index.html")
        #expect(try String(contentsOf: dialog, encoding: .utf8).contains("class=\"close\""))
        app.summaries["s"] = "Sign in, written since"
        let edit = try await build(app, into: output)
        #expect(edit.rendered == 2 && edit.replayed == edit.pages - 2, "\(edit)")
        #expect(try String(contentsOf: dialog, encoding: .utf8).contains("Sign in, written since"))
        #expect(try SiteDifference.files(in: output) == (try await fresh(app, in: folder)))
    }

    /// A multilingual site keeps a journal per language: an edit makes its pages again in every
    /// language, and no other page, and the site is the one a build from nothing makes.
    @Test func aMultilingualEditRemakesItsPageInEveryLanguageWithoutAWalk() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("site")
        var app = Self.app
        app.search = SiteSearch(summaries: true)
        let first = try await build(app, into: output, others: [Self.spanish(app)])
        #expect(first.replayed == 0 && first.languages.map(\.code) == ["en", "es"])
        for name in ["journal-en", "journal-es"] {
            #expect(
                FileManager.default.fileExists(
                    atPath: SiteLayout.spareFolder(of: output).appendingPathComponent(name).path), "\(name) is kept")
        }
        app.summaries["a/b"] = "A summary written since"
        let edit = try await build(app, into: output, others: [Self.spanish(app)])
        #expect(edit.rendered == 2 && edit.replayed == edit.pages - 2, "\(edit)")
        #expect(edit.languages.map(\.code) == ["en", "es"] && edit.links == first.links, "\(edit)")
        #expect(try SiteDifference.files(in: output) == (try await fresh(app, in: folder, others: [Self.spanish(app)])))
        let index = try String(contentsOf: output.appendingPathComponent("es/search-index.json"), encoding: .utf8)
        #expect(index.contains("A summary written since"))
        app.summaries["a"] = "The own summary of a"
        let next = try await build(app, into: output, others: [Self.spanish(app)])
        #expect(next.rendered == 2 && next.replayed == next.pages - 2, "the patched journals are read back: \(next)")
        #expect(try SiteDifference.files(in: output) == (try await fresh(app, in: folder, others: [Self.spanish(app)])))
    }

    /// A language that falls back keeps its journal: an edit is made from the journals like
    /// any other, the other languages' pages still listing no alternate for its untranslated
    /// ones. An edit that changes which pages fall back moves those lists, and is built in full.
    @Test func aSiteWithALanguageThatFallsBackKeepsItsJournal() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("site")
        var app = Self.app
        var spanish = Self.spanish(app)
        spanish.fallbackLanguage = "en"
        spanish.untranslated = ["a"]
        app.untranslated = ["a"] // English never falls back: this only marks the input
        let first = try await build(app, into: output, others: [spanish])
        #expect(first.languages.map(\.fallbackPages) == [0, 1], "\(first)")
        let english = try String(contentsOf: output.appendingPathComponent("en/a/index.html"), encoding: .utf8)
        #expect(!english.contains("<link rel=\"alternate\" hreflang=\"es\""), "the untranslated page is no alternate")
        // An edit in each language: made from the journals, the same site a full build makes.
        app.summaries["a/b"] = "Edited"
        spanish.summaries["a/b"] = "Editado"
        let edit = try await build(app, into: output, others: [spanish])
        #expect(edit.rendered == 2 && edit.replayed == edit.pages - 2, "\(edit)")
        #expect(edit.languages.map(\.fallbackPages) == [0, 1], "\(edit)")
        #expect(try SiteDifference.files(in: output) == (try await fresh(app, in: folder, others: [spanish])))
        // Spanish translates `a` now: English `a` lists it again, so the app is walked.
        spanish.untranslated = []
        app.untranslated = [] // the input fingerprints both languages share are the English app's
        let translated = try await build(app, into: output, others: [spanish])
        #expect(translated.replayed == 0, "\(translated)")
        #expect(try SiteDifference.files(in: output) == (try await fresh(app, in: folder, others: [spanish])))
        let now = try String(contentsOf: output.appendingPathComponent("en/a/index.html"), encoding: .utf8)
        #expect(now.contains("<link rel=\"alternate\" hreflang=\"es\""))
    }

    /// Retitling `a` changes only what `a` read, but every page below `a` shows the title in its
    /// breadcrumbs: the pages move, and the build walks the app.
    @Test func aRetitledPageMovesThePagesBelowIt() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("site")
        try await build(Self.app, into: output)
        var retitled = Self.app
        retitled.titles["a"] = "Retitled"
        let second = try await build(retitled, into: output)
        #expect(second.replayed == 0, "\(second)")
        #expect(try SiteDifference.files(in: output) == (try await fresh(retitled, in: folder)))
        let page = try String(contentsOf: output.appendingPathComponent("a/b/c/index.html"), encoding: .utf8)
        #expect(page.contains("Retitled"), "the breadcrumb of a page below a/")
    }

    /// A page made again that links elsewhere moves other pages: the build walks the app.
    /// An edit keeps the last full build's journeys: one to a page on a journey that keeps the link the journey
    /// follows stays an edit; one that renames that link is built in full, and the journey, taken anew, breaks.
    @Test func anEditThatRenamesAJourneysLinkIsBuiltInFull() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("site")
        var app = Self.app
        app.journeys = [
            Journey("Down to c", from: "", steps: [.follow("to a"), .follow("to a/b"), .follow("to a/b/c")])
        ]
        try await build(app, into: output)
        app.summaries["a/b"] = "On the way"
        let kept = try await build(app, into: output)
        #expect(kept.replayed == kept.pages - 1, "\(kept)")
        app.linkWords["a/b"] = "onward to"
        let renamed = try await build(app, into: output)
        #expect(renamed.replayed == 0, "\(renamed)")
        #expect(renamed.flow?.journeys.first?.brokenAtStep == 3)
        let record = try String(contentsOf: output.appendingPathComponent(".flowsite-flow.json"), encoding: .utf8)
        #expect(record.contains(#""brokenAtStep" : 3"#))
    }

    @Test func anEditThatAddsALinkWalksTheApp() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("site")
        var app = Self.app
        try await build(app, into: output)
        app.links["about", default: []].append("a")
        let edit = try await build(app, into: output)
        #expect(edit.replayed == 0 && edit.rendered == 1, "\(edit)")
        #expect(try SiteDifference.files(in: output) == (try await fresh(app, in: folder)))
    }

    /// A page's own files follow it: one it no longer writes goes, a new one is written.
    @Test func aPageThatWritesFilesIsRightAfterAnEdit() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("site")
        var app = Self.app
        app.files["a/b"] = ["data.json": Data("[1]".utf8)]
        try await build(app, into: output)
        app.files["a/b"] = ["other.json": Data("[2]".utf8)]
        try await build(app, into: output)
        #expect(try SiteDifference.files(in: output) == (try await fresh(app, in: folder)))
        #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent("a/b/data.json").path))
    }

    /// A page made again that fails leaves the site as it was, and the next build is right.
    @Test func aFailedEditLeavesTheSiteAsItWas() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("site")
        var app = Self.app
        try await build(app, into: output)
        let before = try SiteDifference.files(in: output)
        app.failing = ["a/b"]
        await #expect(throws: (any Error).self) { try await build(app, into: output) }
        #expect(try SiteDifference.files(in: output) == before)
        app.failing = []
        app.summaries["a/b"] = "Fixed"
        let fixed = try await build(app, into: output)
        #expect(fixed.rendered == 1, "\(fixed)")
        #expect(try SiteDifference.files(in: output) == (try await fresh(app, in: folder)))
    }

    /// Nothing changed: every page is taken from the journal and nothing is rendered.
    @Test func withNothingChangedEveryPageIsReplayed() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("site")
        try await build(Self.app, into: output)
        let again = try await build(Self.app, into: output)
        #expect(again.replayed == again.pages && again.rendered == 0, "\(again)")
        #expect(try SiteDifference.files(in: output) == (try await fresh(Self.app, in: folder)))
    }

    /// An edit that adds an input no page reads (its keys change, no page moves) is built from the
    /// journal, and the journal, patched with the new keys, serves the build after it.
    @Test func anEditThatAddsAnInputKeepsTheJournal() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("site")
        var app = Self.app
        try await build(app, into: output)
        app.summaries["unreached"] = "Read by no page"
        let added = try await build(app, into: output)
        #expect(added.replayed == added.pages && added.rendered == 0, "\(added)")
        let again = try await build(app, into: output)
        #expect(again.replayed == again.pages && again.rendered == 0, "\(again)")
        #expect(try SiteDifference.files(in: output) == (try await fresh(app, in: folder)))
    }

    /// A build that failed at its end (after the walk) leaves the site and the journal as they
    /// were: the next edit is built from them, rightly.
    @Test func aFailedBuildLeavesTheJournalToTrust() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("site")
        try await build(Self.app, into: output)
        var retitled = Self.app
        retitled.titles["about"] = "Changed"
        var failing = SiteBuilder(coordinator: retitled)
        failing.journalsEdits = true
        failing.inputFingerprints = retitled.inputFingerprints
        failing.beforeCommit = { _ in throw GraphError(description: "killed midway") }
        await #expect(throws: GraphError.self) { try await failing.build(into: output) }
        try await build(retitled, into: output)
        #expect(try SiteDifference.files(in: output) == (try await fresh(retitled, in: folder)))
    }

    /// An edited stylesheet (an asset, which no page's state reads) is written: the journal of
    /// a build with other assets is not used.
    @Test func anEditedAssetIsWritten() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("site")
        try await build(Self.app, into: output)
        var templates = TemplateSet.embedded
        templates.assets["style.css"] = Data("body { color: rebeccapurple; }\n".utf8)
        let edit = try await build(Self.app, into: output, templates: templates)
        #expect(edit.rendered == 0, "the pages are the same: \(edit)")
        let css = try String(contentsOf: output.appendingPathComponent("assets/style.css"), encoding: .utf8)
        #expect(css.contains("rebeccapurple"))
    }

    /// The journal and the manifest shortened by another process just before an edit commits
    /// (both are mapped): the build neither crashes nor trusts what it read, but builds in
    /// full, and the journal that build writes serves the next edit.
    @Test func aJournalAndManifestTruncatedMidBuildPullNothingFromUnderIt() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("site")
        var app = Self.app
        try await build(app, into: output)
        let journal = SiteLayout.journalPath(of: output)
        let manifest = output.appendingPathComponent(SiteLayout.manifest).path
        app.summaries["a/b"] = "Edited while the files shrink"
        var builder = SiteBuilder(coordinator: app)
        builder.journalsEdits = true
        builder.inputFingerprints = app.inputFingerprints
        let cut = Locked(false)
        builder.beforeCommit = { _ in
            guard !cut.withLock({ $0 }) else { return }
            cut.withLock { $0 = true }
            for path in [journal, manifest] {
                var status = stat()
                guard stat(path, &status) == 0, truncate(path, off_t(status.st_size / 3)) == 0 else {
                    throw GraphError(description: "can't truncate \(path)")
                }
            }
        }
        let edit = try await builder.build(into: output)
        #expect(cut.withLock { $0 })
        #expect(edit.replayed == 0, "built in full, not from the journal cut before the commit: \(edit)")
        #expect(try SiteDifference.files(in: output) == (try await fresh(app, in: folder)))
        app.summaries["a"] = "And edited again"
        let next = try await build(app, into: output)
        #expect(next.rendered == 1 && next.replayed == next.pages - 1, "the full build wrote a whole journal: \(next)")
        #expect(try SiteDifference.files(in: output) == (try await fresh(app, in: folder)))
    }

    /// Builds a site, lets the read-ahead map and check its journal, runs `damage` on the
    /// journal's path, then edits a page with that read-ahead: the edit must take the mapped
    /// journal, yet build in full and right.
    func expectAFullBuild(after damage: (String, StoredJournal) throws -> Void) async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("site")
        var app = Self.app
        try await build(app, into: output)
        let ahead = SiteReadAhead(output: output)
        _ = ahead.staleSpareFiles(in: -1) // waits until all is read; -1 is no folder
        try damage(SiteLayout.journalPath(of: output), try #require(StoredJournal.load(for: output, buildKey: nil)))
        app.summaries["a/b"] = "Edited after the journal was damaged"
        var builder = SiteBuilder(coordinator: app)
        builder.journalsEdits = true
        builder.inputFingerprints = app.inputFingerprints
        builder.readAhead = ahead
        let edit = try await builder.build(into: output)
        #expect(ahead.used.contains("journal"), "the build took the journal the read-ahead mapped")
        #expect(edit.replayed == 0, "nothing was taken from the damaged journal: \(edit)")
        #expect(try SiteDifference.files(in: output) == (try await fresh(app, in: folder)))
    }

    /// A journal shortened after the build's read-ahead mapped and checked it, before the edit
    /// reads its pages' records: the records past the cut read as zeros.
    @Test func aJournalCutAfterItWasCheckedGivesAFullBuild() async throws {
        try await expectAFullBuild { path, journal in
            // Cut where the pages' products start: their walk records are whole.
            #expect(truncate(path, off_t(journal.meta.products)) == 0)
        }
    }

    /// A journal written over in place (as another build patches it) after the read-ahead
    /// mapped and checked it: the edit sees the new bytes.
    @Test func aJournalWrittenInPlaceAfterItWasCheckedGivesAFullBuild() async throws {
        try await expectAFullBuild { path, journal in
            // The pages' walk records, zeroed: the offsets and the meta block stay as they were.
            let records = journal.meta.walkOffsets
            let file = open(path, O_WRONLY)
            #expect(file >= 0)
            defer { close(file) }
            let zeros = [UInt8](repeating: 0, count: records)
            #expect(zeros.withUnsafeBytes { pwrite(file, $0.baseAddress!, records, 0) } == records)
        }
    }

    /// A journal mapped and then cut reads zeros past the cut, not SIGBUS, and says so.
    @Test func aCutJournalReadsZerosAndSaysItWasCut() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("site")
        try await build(Self.app, into: output)
        let journal = try #require(StoredJournal.load(for: output, buildKey: nil))
        #expect(!journal.wasChanged)
        #expect(truncate(SiteLayout.journalPath(of: output), 0) == 0)
        let last = journal.raw.count - 1
        #expect(journal.raw[last] == 0, "a byte past the cut reads as zero")
        #expect(journal.wasChanged)
    }

    /// The trailer an edit's patch writes holds the checksums of the journal it meant to write,
    /// made before it writes, not read back: patched as meant, the file passes them; cut by
    /// another process while it is patched (the writes then land past a hole of zeros), it
    /// fails them, so no later edit trusts it.
    @Test func aPatchsChecksumsAreOfWhatItMeantNotOfWhatTheFileHolds() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("site")
        try await build(Self.app, into: output)
        let journal = try #require(StoredJournal.load(for: output, buildKey: nil))
        let appended = Array("the pages' new records".utf8)
        let writes: [(at: Int, bytes: [UInt8])] = [
            (8, [1, 2, 3, 4]), (journal.metaStart, Array("a new meta block".utf8))
        ]
        let meant = SiteBuilder<GraphCoordinator>.patchedChecksums(journal, appended: appended, writes: writes)
        let original = [UInt8](try Data(contentsOf: URL(fileURLWithPath: SiteLayout.journalPath(of: output))))
        // The checksums of the file the patch leaves, after a cut at `cut` when one is given.
        func checksums(cutAt cut: Int?) -> [StableHash] {
            var bytes = original
            if let cut { bytes.replaceSubrange(cut..., with: [UInt8](repeating: 0, count: bytes.count - cut)) }
            bytes += appended
            for write in writes { bytes.replaceSubrange(write.at..<write.at + write.bytes.count, with: write.bytes) }
            return bytes.withUnsafeBytes { JournalFile.blockChecksums(of: $0) }
        }
        #expect(checksums(cutAt: nil) == meant)
        #expect(checksums(cutAt: original.count / 2) != meant)
    }

    /// A sealed file's checksums, taken as it writes, are those of the bytes it leaves, block for block across
    /// boundaries that appends straddle; the trailer follows them and the file is renamed. One it can't seal
    /// leaves nothing.
    @Test func aSealedFileChecksumsWhatItWroteWithoutReadingItBack() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("writing").path
        let destination = folder.appendingPathComponent("sealed").path
        var file = try #require(SealedFile(creating: path))
        var random = SystemRandomNumberGenerator()
        var written: [UInt8] = []
        // Appends of uneven sizes, some larger than a block, to a little past three blocks.
        while written.count < 3 * JournalFile.checksumBlock + 12_345 {
            let chunk = (0..<Int.random(in: 1...(JournalFile.checksumBlock + 1000), using: &random)).map {
                UInt8(truncatingIfNeeded: $0 &* 31 &+ written.count)
            }
            chunk.withUnsafeBytes { file.append($0) }
            written += chunk
        }
        #expect(file.count == written.count)
        var taken: [StableHash] = []
        let sealedIt = file.seal(
            trailer: { checksums in
                taken = checksums
                return Array("trailer".utf8)
            }, as: destination)
        #expect(sealedIt)
        let sealed = [UInt8](try Data(contentsOf: URL(fileURLWithPath: destination)))
        #expect(sealed == written + Array("trailer".utf8))
        #expect(taken == written.withUnsafeBytes { JournalFile.blockChecksums(of: $0) })
        #expect(taken.count == 4)
        #expect(!FileManager.default.fileExists(atPath: path))

        var unsealable = try #require(SealedFile(creating: path))
        [1, 2, 3].withUnsafeBytes { unsealable.append($0) }
        let sealedUnsealable = unsealable.seal(
            trailer: { _ in [] }, as: folder.appendingPathComponent("no/such/folder").path)
        #expect(!sealedUnsealable)
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    /// The manifest cut while the no-change check reads it: the check doesn't crash, and the
    /// site is not taken as unchanged.
    @Test func aManifestCutWhileCheckedIsNotIntact() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("site")
        try await build(Self.app, into: output)
        let site = open(output.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        #expect(site >= 0)
        defer { close(site) }
        let check = try #require(SiteManifest.FileCheck(mappingManifestIn: site))
        #expect(truncate(output.appendingPathComponent(SiteLayout.manifest).path, 0) == 0)
        #expect(check.unchangedSite(lanes: 2) == nil)
    }
}
