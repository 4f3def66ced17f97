import Foundation
import Testing

@testable import FlowSite

/// `diff` reports journeys first: the shop of ``JourneyTests`` built twice, with a change between, as a reviewer
/// reads it.
@Suite struct JourneyDiffTests {
    static let secondLamp = Journey<ShelfRoute>(
        "Reach the second lamp", from: .shop, steps: [.follow(to: .item(2)), .follow("Sign in to like it")])
    static let likeALamp = Journey<ShelfRoute>(
        "Sign in to like a lamp", from: .shop,
        steps: [.follow("Lamp 1"), .follow("Sign in to like it", as: .modal, title: "Sign in")])
    /// The same journey once signing in moved to the account page.
    static let likeALampThroughTheAccount = Journey<ShelfRoute>(
        "Sign in to like a lamp", from: .shop,
        steps: [.follow("Lamp 1"), .follow("Your account"), .follow("Sign in to like it", as: .modal)])
    /// From a lamp's page, which no change here touches.
    static let openSaved = Journey<ShelfRoute>("See what is saved", from: .item(1), steps: [.tab("Saved")])

    func compare(_ old: ShelfApp, _ new: ShelfApp) async throws -> SiteComparison {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (before, after) = (folder.appendingPathComponent("old"), folder.appendingPathComponent("new"))
        try await SiteBuilder(coordinator: old).build(into: before)
        try await SiteBuilder(coordinator: new).build(into: after)
        return try SiteComparison(old: before, new: after)
    }

    /// The shop stops listing the second lamp: the journey through it breaks at its first step; the one that
    /// passes the shop is changed, with the shop's row beneath; the one that does not is counted, not listed.
    @Test func cuttingALinkBreaksTheJourneyAtItsStep() async throws {
        let journeys = [Self.secondLamp, Self.likeALamp, Self.openSaved]
        let comparison = try await compare(
            ShelfApp(journeys: journeys), ShelfApp(listsItemTwo: false, journeys: journeys))
        #expect(comparison.journeyChanges.changes.map(\.what) == [.breaks, .changed])
        #expect(comparison.journeyChanges.unchanged == 1)
        let text = comparison.text()
        #expect(text.hasPrefix("journeys 1 breaks, 1 changed, 1 unchanged; 1 page changed"))
        #expect(
            text.contains(
                """
                Journeys (1 unchanged):
                ! Journey 'Reach the second lamp' breaks at step 1: no link '/items/2/ (item(2))' on Shop (/); \
                it has 'Lamp 1'
                ~ 'Sign in to like a lamp': pages changed on the way
                    Shop (/): - Lamp 2
                """))
        // First: before the pages and the flow.
        let first = try #require(text.range(of: "Journeys (1 unchanged)"))
        let flow = try #require(text.range(of: "Flow:"))
        #expect(first.lowerBound < flow.lowerBound)
        #expect(!text.contains("'See what is saved'"))
        #expect(comparison.markdown().contains("- **Journey 'Reach the second lamp' breaks at step 1\\: no link"))
        #expect(
            try comparison.reviewPage().contains(
                "<li class=\"breaks\"><strong>Journey &#39;Reach the second lamp&#39; breaks at step 1"))
        #expect(comparison.json().contains(#""what" : "breaks""#))
    }

    /// Signing in moves behind the account page and the journey is declared through it: one tap more, with the
    /// way before and after.
    @Test func aLongerWayShowsItsTapsBeforeAndAfter() async throws {
        let comparison = try await compare(
            ShelfApp(journeys: [Self.likeALamp, Self.openSaved]),
            ShelfApp(signsInFromAccount: true, journeys: [Self.likeALampThroughTheAccount, Self.openSaved]))
        let change = try #require(comparison.journeyChanges.changes.first)
        #expect(change.what == .longer && change.tapsBefore == 2 && change.tapsAfter == 3)
        // The saved items' journey starts on the lamp's page, whose link changed.
        #expect(comparison.journeyChanges.changes.map(\.what) == [.longer, .changed])
        #expect(
            comparison.text().contains(
                "~ 'Sign in to like a lamp': 2 → 3 taps (Shop › Lamp 1 › Sign in → Shop › Lamp 1 › Your account › "
                    + "Sign in)"))
    }

    /// A page on the way whose content changed: the journey is listed as changed with the page's rows beneath;
    /// the same journey with the same pages is counted only.
    @Test func aChangedPageOnTheWayIsListedWithItsRows() async throws {
        let comparison = try await compare(
            ShelfApp(journeys: [Self.likeALamp, Self.openSaved]),
            ShelfApp(listsItemTwo: false, journeys: [Self.likeALamp, Self.openSaved]))
        let change = try #require(comparison.journeyChanges.changes.first)
        #expect(change.what == .changed && change.wayBefore == nil)
        #expect(change.pages.map(\.page.path) == ["index.html"])
        #expect(comparison.text().contains("~ 'Sign in to like a lamp': pages changed on the way\n    Shop (/): "))
        #expect(comparison.journeyChanges.unchanged == 1)
    }

    /// Two builds of one app: nothing about journeys to report, and the sites are equal.
    @Test func unchangedJourneysAreCountedAndTheSitesEqual() async throws {
        let app = ShelfApp(journeys: [Self.likeALamp, Self.openSaved])
        let comparison = try await compare(app, app)
        #expect(comparison.journeyChanges.changes.isEmpty && comparison.journeyChanges.unchanged == 2)
        #expect(comparison.isEqual)
    }
}
