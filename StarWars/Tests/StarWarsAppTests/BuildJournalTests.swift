import Foundation
import SWAPI
import StarWarsTestSupport
import Testing

@testable import FlowSite
@testable import StarWarsApp

/// `holocron build` in a new process after an edit: the journal the last build kept beside the
/// site (``SiteBuilder/journalsEdits``) says which pages read a changed input, and the site it
/// makes is the one a build from nothing makes.
@Suite struct BuildJournalTests {
    typealias Archive = PageInputsTests.Archive

    static func archive(_ data: Archive) throws -> SwapiArchive {
        try SwapiArchive(
            people: data.people, films: data.films, planets: data.planets, species: data.species,
            starships: data.starships, vehicles: data.vehicles)
    }

    /// The fingerprints find exactly the inputs that comparing two catalogs finds, for every
    /// kind of edit: no change is missed, and nothing else is made again.
    @Test(arguments: 0..<PageInputsTests.edits.count)
    func fingerprintsFindTheInputsComparingCatalogsFinds(edit: Int) throws {
        let original = try EmbeddedSnapshot.load()
        var data: Archive = (
            original.people, original.films, original.planets, original.species, original.starships, original.vehicles
        )
        var random = SplitMix(seed: 0xF1E1D + UInt64(edit))
        let before = Catalog(archive: try Self.archive(data))
        PageInputsTests.edits[edit].apply(&data, &random)
        let after = Catalog(archive: try Self.archive(data))
        let changed = after.inputFingerprints().changes(since: before.inputFingerprints())
        #expect(!changed.isEmpty, "\(PageInputsTests.edits[edit])")
        #expect(changed == after.changedInputs(since: before), "\(PageInputsTests.edits[edit])")
        #expect(after.inputFingerprints().changes(since: after.inputFingerprints()).isEmpty)
    }

    /// Read from a snapshot folder, each record is fingerprinted from its text as it is
    /// decoded: for every kind of edit, written to the files, the fingerprints find exactly the
    /// inputs comparing the two catalogs finds, and reading the same files again finds none.
    @Test(arguments: 0..<PageInputsTests.edits.count)
    func fingerprintsOfTheFilesFindTheInputsComparingCatalogsFinds(edit: Int) throws {
        let original = try EmbeddedSnapshot.load()
        var data: Archive = (
            original.people, original.films, original.planets, original.species, original.starships, original.vehicles
        )
        var random = SplitMix(seed: 0xF11E5 + UInt64(edit))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "starwars-fingerprints-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        func load() throws -> (catalog: Catalog, fingerprints: InputFingerprints) {
            let loaded = try SnapshotDirectory(url: folder).load(reusing: nil)
            let resources = try #require(loaded.resourceFingerprints)
            let catalog = Catalog(archive: loaded.archive)
            return (catalog, catalog.inputFingerprints(resources: resources))
        }
        try SnapshotDirectory.write(try Self.archive(data), to: folder)
        let before = try load()
        #expect(try load().fingerprints.changes(since: before.fingerprints).isEmpty)
        PageInputsTests.edits[edit].apply(&data, &random)
        try SnapshotDirectory.write(try Self.archive(data), to: folder)
        let after = try load()
        let changed = after.fingerprints.changes(since: before.fingerprints)
        #expect(
            !changed.isEmpty && changed == after.catalog.changedInputs(since: before.catalog),
            "\(PageInputsTests.edits[edit])")
    }

    /// Every route's stored name makes the same route again, and names the app never wrote are
    /// refused.
    @Test func storedNamesMakeTheRoutesAgain() throws {
        let catalog = Catalog(archive: try EmbeddedSnapshot.load())
        var routes: [AppRoute] = [.home, .search, .about, .alert(.missing(.planets, id: 99)), .list(.films, page: 2)]
        routes.append(catalog.route(.people, id: 1))
        for route in routes {
            let again = AppRoute(storedName: route.storedName)
            #expect(again == route && again?.path == route.path, "\(route.storedName)")
        }
        for name in [
            "", "home/1", "list/people", "list/robots/1", "detail/people/1/Not A Slug", "detail/people/x/luke",
            "missing/people"
        ] {
            #expect(AppRoute(storedName: name) == nil, "\(name)")
        }
    }

    /// Edit after edit, each build a new builder with no memory (as a new `holocron build`
    /// process is): the site is byte for byte a build from nothing of the same data, and an
    /// edit that changes what pages say but not where they lead makes only the pages it reaches.
    @Test(arguments: [UInt64(5), 9])
    func buildsFromTheJournalAreByteIdenticalToFullBuilds(seed: UInt64) async throws {
        let original = try EmbeddedSnapshot.load()
        var data: Archive = (
            original.people, original.films, original.planets, original.species, original.starships, original.vehicles
        )
        var random = SplitMix(seed: 0x10A2_0000 + seed)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "starwars-journal-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let live = folder.appendingPathComponent("site")
        var footer = TemplateSet.embedded
        footer.templates["footer"] = try #require(footer.templates["footer"]).replacingOccurrences(
            of: "<footer class=\"site-footer\">", with: "<footer class=\"site-footer\">\n<p>Edited.</p>"
        )
        var fromJournal = 0
        for step in 0..<10 {
            let templates = step == 4 ? footer : TemplateSet.embedded
            let edit =
                step == 0 ? nil : PageInputsTests.edits[Int.random(in: 0..<PageInputsTests.edits.count, using: &random)]
            edit?.apply(&data, &random)
            let archive = try Self.archive(data)
            let app = AppCoordinator(dependencies: .live(.archive(archive)))
            var builder = SiteBuilder(coordinator: app, templates: templates)
            builder.journalsEdits = true
            builder.inputFingerprints = Catalog(archive: archive).inputFingerprints()
            let report = try await builder.build(into: live)
            #expect(
                FileManager.default.fileExists(atPath: SiteLayout.journalPath(of: live)),
                "step \(step): the journal is kept"
            )

            let fresh = folder.appendingPathComponent("fresh-\(step)")
            let full = try await SiteBuilder(coordinator: app, templates: templates).build(into: fresh)
            let what =
                """
                step \(step): \(edit?.description ?? "first build")\
                \(step == 4 ? ", footer edited" : step == 5 ? ", footer restored" : "")
                """
            #expect(try SiteDifference.files(in: live) == (try SiteDifference.files(in: fresh)), "\(what)")
            try FileManager.default.removeItem(at: fresh)
            #expect(report.pages == full.pages, "\(what)")
            if report.replayed > 0 {
                fromJournal += 1
                #expect(report.rendered < full.pages / 2, "\(what): \(report.rendered) rendered of \(full.pages)")
            }
            if step == 4 || step == 5 || step == 0 {
                #expect(report.replayed == 0, "\(what): other templates, nothing to keep")
            }
            // An edit that changes what pages say, not where they lead, is built from the journal.
            if step != 4, step != 5, let edit,
                ["a character's height", "a planet's population", "a vehicle's crew"].contains(edit.description)
            {
                #expect(report.replayed > full.pages / 2, "\(what): \(report.replayed) pages kept of \(full.pages)")
            }
        }
        #expect(fromJournal > 0, "no edit was built from the journal")
    }

    /// A build of `data` into `live` that keeps a journal (with what was read of the site
    /// ahead, when given).
    static func build(_ data: Archive, into live: URL, readAhead: SiteReadAhead? = nil) async throws -> BuildReport {
        let archive = try Self.archive(data)
        var builder = SiteBuilder(coordinator: AppCoordinator(dependencies: .live(.archive(archive))))
        builder.journalsEdits = true
        builder.inputFingerprints = Catalog(archive: archive).inputFingerprints()
        builder.readAhead = readAhead
        return try await builder.build(into: live)
    }

    /// The embedded data, a new temporary folder named after `folder`, and the site's place in it.
    static func embeddedData(folder name: String) throws -> (data: Archive, folder: URL, live: URL) {
        let original = try EmbeddedSnapshot.load()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)")
        return (
            (
                original.people, original.films, original.planets, original.species, original.starships,
                original.vehicles
            ), folder, folder.appendingPathComponent("site")
        )
    }

    /// A page reads what it shows: a film's page shows its characters' names, not their
    /// records, so editing a character's mass makes that character's pages again and leaves
    /// the films (and planets, species and craft that list the character) as they were; editing
    /// the name makes them all again. Both sites are byte for byte a build from nothing.
    @Test func aFieldNoLinkShowsLeavesTheLinkingPagesAsTheyWere() async throws {
        let (embedded, folder, live) = try Self.embeddedData(folder: "starwars-read-fields")
        var data = embedded
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try await Self.build(data, into: live)
        let person = data.people[0]
        let linking =
            person.films.count + person.starships.count + person.vehicles.count + (person.homeworld == nil ? 0 : 1)
        #expect(linking >= 4, "\(person.name) is linked from several pages")

        data.people[0].mass = "78"
        let massEdit = try await Self.build(data, into: live)
        let massMade = massEdit.pages - massEdit.replayed
        #expect(massEdit.replayed > 0)
        #expect(
            massMade < linking, "\(massMade) pages made again for a mass edit; \(linking) pages link \(person.name)")

        data.people[0].name = person.name + " Skyrunner"
        let nameEdit = try await Self.build(data, into: live)
        let nameMade = nameEdit.pages - nameEdit.replayed
        #expect(
            nameEdit.replayed == 0 || nameMade > linking,
            "a renamed character's links are made again (\(nameMade) pages)")

        let fresh = folder.appendingPathComponent("fresh")
        _ = try await SiteBuilder(coordinator: AppCoordinator(dependencies: .live(.archive(try Self.archive(data)))))
            .build(into: fresh)
        #expect(try SiteDifference.files(in: live) == (try SiteDifference.files(in: fresh)))
    }

    /// What a build reads of the site before it loads its data (the manifests and the journal,
    /// read on another core) is used only while it is still what the site holds: read before
    /// another build replaced the site and its spare, it is not trusted, and either way the
    /// site is byte for byte a build from nothing of the same data.
    @Test func whatWasReadAheadIsUsedOnlyWhileTheSiteIsTheOneRead() async throws {
        let (embedded, folder, live) = try Self.embeddedData(folder: "starwars-read-ahead")
        var data = embedded
        defer { try? FileManager.default.removeItem(at: folder) }
        func expectLikeAFullBuild(_ what: String) async throws {
            let fresh = folder.appendingPathComponent("fresh")
            defer { try? FileManager.default.removeItem(at: fresh) }
            let app = AppCoordinator(dependencies: .live(.archive(try Self.archive(data))))
            _ = try await SiteBuilder(coordinator: app).build(into: fresh)
            #expect(try SiteDifference.files(in: live) == (try SiteDifference.files(in: fresh)), "\(what)")
        }
        _ = try await Self.build(data, into: live)
        data.people[0].height = "173"
        _ = try await Self.build(data, into: live)

        // Read ahead, and still the site: the edit is built from what was read.
        let ahead = SiteReadAhead(output: live)
        data.people[0].height = "174"
        let edit = try await Self.build(data, into: live, readAhead: ahead)
        #expect(edit.replayed > 0, "the edit is built from the journal read ahead")
        #expect(
            ahead.used == ["journal", "difference", "checked"],
            "the journal, what the spare lacks of the live site, and the spare's check")
        try await expectLikeAFullBuild("an edit from what was read ahead")

        // Read ahead, then another build swaps in a new site (and makes the old one the spare).
        let stale = SiteReadAhead(output: live)
        #expect(stale.journal() != nil, "the journal was read")
        #expect(stale.journal() == nil, "and is handed out once")
        let staleAgain = SiteReadAhead(output: live)
        data.people[0].height = "175"
        _ = try await Self.build(data, into: live)
        #expect(staleAgain.journal() == nil, "a journal read before another build is not handed out")
        data.people[0].height = "176"
        _ = try await Self.build(
            data, into: live, readAhead: SiteReadAhead(output: folder.appendingPathComponent("elsewhere")))
        try await expectLikeAFullBuild("an edit with what was read of another folder")
        let late = SiteReadAhead(output: live)
        data.people[0].height = "177"
        // Without its journal (which five edits' patches brought near an eighth appended) the build
        // walks and writes it anew, so that the edit after it is built from the journal.
        try FileManager.default.removeItem(atPath: SiteLayout.journalPath(of: live))
        _ = try await Self.build(data, into: live)
        data.people[1].height = "178"
        let afterAnother = try await Self.build(data, into: live, readAhead: late)
        try await expectLikeAFullBuild("an edit with what was read before another build")
        #expect(afterAnother.replayed > 0, "built from the journal on disk")
        #expect(late.used.isEmpty, "nothing read before the other build was used")

        // A page of the live site changed by hand (its file is the spare's too, one inode)
        // before the spare was checked ahead: the check finds it, and the edit does not keep it.
        let planet = Catalog(archive: try Self.archive(data)).route(
            .planets, id: data.planets[data.planets.count - 1].id)
        let page = live.appendingPathComponent(planet.path.file)
        let handle = try FileHandle(forWritingTo: page)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("<!-- changed by hand -->".utf8))
        try handle.close()
        let checking = SiteReadAhead(output: live)
        data.people[0].height = "179"
        _ = try await Self.build(data, into: live, readAhead: checking)
        #expect(
            checking.used.contains("checked") || !checking.used.contains("difference"),
            "the spare's check was used with its manifest")
        #expect(!(try String(contentsOf: page, encoding: .utf8)).contains("changed by hand"))
        try await expectLikeAFullBuild("an edit after a page was changed by hand")
    }

    /// A journal that is damaged, or a file of the live site changed by hand since the journal
    /// was written, is never trusted: the edit is built in full, and the site is still the one
    /// a build from nothing makes.
    /// An edit patches the journal in place (its pages' records appended, a new trailer after
    /// them) until what it appended passes an eighth of the file; then the next edit walks in
    /// full and writes the journal anew. Every site along the way is byte for byte a build from
    /// nothing.
    @Test func aPatchedJournalGrowsThenIsWrittenAnew() async throws {
        var (data, folder, live) = try Self.embeddedData(folder: "starwars-journal-patch")
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try await Self.build(data, into: live)
        let journal = SiteLayout.journalPath(of: live)
        func size() throws -> Int { (try FileManager.default.attributesOfItem(atPath: journal)[.size] as? Int) ?? 0 }
        var sizes = [try size()]
        var walked: [Int] = []
        var random = SplitMix(seed: 0x9A7C)
        for step in 1...30 {
            let person = Int(random.next() % UInt64(data.people.count))
            data.people[person].height = String(100 + step)
            let report = try await Self.build(data, into: live)
            if report.replayed == 0 { walked.append(step) }
            sizes.append(try size())
            if step % 6 == 0 || step == 30 {
                let fresh = folder.appendingPathComponent("fresh-\(step)")
                _ = try await SiteBuilder(
                    coordinator: AppCoordinator(dependencies: .live(.archive(try Self.archive(data))))
                ).build(into: fresh)
                #expect(try SiteDifference.files(in: live) == (try SiteDifference.files(in: fresh)), "step \(step)")
                try FileManager.default.removeItem(at: fresh)
            }
        }
        let grew = zip(sizes, sizes.dropFirst()).filter { $0 < $1 }.count
        let shrank = zip(sizes, sizes.dropFirst()).filter { $0 > $1 }.count
        #expect(grew > 10, "patched in place: \(sizes)")
        #expect(shrank > 0, "written anew: \(sizes)")
        // An edit walks exactly when what patches appended since the journal was last written whole
        // (by the first build or by a walk) passed an eighth of it; the walk writes it anew.
        var whole = sizes[0]
        for step in 1...30 {
            let before = sizes[step - 1]
            #expect(walked.contains(step) == (before - whole > before / 8), "step \(step): \(sizes)")
            if walked.contains(step) {
                #expect(sizes[step] < before, "step \(step): \(sizes)")
                whole = sizes[step]
            }
        }
        #expect(sizes.max()! <= sizes[0] * 5 / 4, "never far past the first: \(sizes)")
    }

    /// A patch cut short (bytes appended with no trailer after them, or written over with none
    /// yet) leaves a journal that is not trusted: the next build walks in full and is right.
    @Test(arguments: ["appended", "written over"])
    func aPatchCutShortIsNotTrusted(cut: String) async throws {
        var (data, folder, live) = try Self.embeddedData(folder: "starwars-journal-cut")
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try await Self.build(data, into: live)
        data.people[0].height = "173"
        #expect(try await Self.build(data, into: live).replayed > 0)
        let journal = try FileHandle(forUpdating: URL(fileURLWithPath: SiteLayout.journalPath(of: live)))
        if cut == "appended" {
            try journal.seekToEnd()
            try journal.write(contentsOf: Data(repeating: 7, count: 300))
        } else {
            // Bytes near the start written over, as a patch writes into the file before its trailer.
            try journal.seek(toOffset: 64)
            try journal.write(contentsOf: Data(repeating: 0, count: 8))
        }
        try journal.close()
        data.people[0].height = "174"
        let report = try await Self.build(data, into: live)
        #expect(report.replayed == 0, "\(cut): built in full")
        let fresh = folder.appendingPathComponent("fresh")
        _ = try await SiteBuilder(coordinator: AppCoordinator(dependencies: .live(.archive(try Self.archive(data)))))
            .build(into: fresh)
        #expect(try SiteDifference.files(in: live) == (try SiteDifference.files(in: fresh)), "\(cut)")
    }

    @Test(arguments: ["truncated", "bytes flipped", "hand-edited page", "removed page"])
    func aJournalThatCannotBeTrustedMeansAFullBuild(damage: String) async throws {
        let original = try EmbeddedSnapshot.load()
        var data: Archive = (
            original.people, original.films, original.planets, original.species, original.starships, original.vehicles
        )
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "starwars-journal-damage-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let live = folder.appendingPathComponent("site")
        _ = try await Self.build(data, into: live)
        data.people[0].height = "173"
        let journal = URL(fileURLWithPath: SiteLayout.journalPath(of: live))
        var bytes = try Data(contentsOf: journal)
        // A page the edit does not reach: the last planet's.
        let planet = Catalog(archive: try Self.archive(data)).route(
            .planets, id: data.planets[data.planets.count - 1].id)
        let page = live.appendingPathComponent(planet.path.file)
        switch damage {
        case "truncated": bytes = bytes.prefix(bytes.count / 2)
        case "bytes flipped": for offset in stride(from: 0, to: bytes.count, by: 97) { bytes[offset] ^= 0x5A }
        case "hand-edited page":
            let handle = try FileHandle(forWritingTo: page)
            try handle.seekToEnd()
            try handle.write(contentsOf: Data("<!-- mine -->".utf8))
            try handle.close()
        default: try FileManager.default.removeItem(at: page)
        }
        try bytes.write(to: journal)
        let report = try await Self.build(data, into: live)
        #expect(report.replayed == 0, "\(damage): built in full")
        let fresh = folder.appendingPathComponent("fresh")
        _ = try await SiteBuilder(coordinator: AppCoordinator(dependencies: .live(.archive(try Self.archive(data)))))
            .build(into: fresh)
        #expect(try SiteDifference.files(in: live) == (try SiteDifference.files(in: fresh)), "\(damage)")
        // And the next edit is built from the journal that full build wrote.
        data.people[0].height = "174"
        #expect(try await Self.build(data, into: live).replayed > 0)
    }
}
