/// A journey as a build leaves it: in `graph --format json` for tools, in the flow record for `diff`, and on the
/// journey pages. Declared journeys (``RootCoordinator/journeys``) are taken over the walk; a test's is the pages
/// a coordinator test showed, read from its flow coverage file.
package struct JourneyRecord: Codable, Sendable, Hashable {
    /// How one step reached its page.
    package struct Step: Codable, Sendable, Hashable {
        /// The link text followed; `nil` for a test's step (a test shows routes, not links).
        package var label: String?
        /// A ``Presentation``'s raw value.
        package var presentation: String
        /// Whether it is a tab bar selection.
        package var tab: Bool?
        /// The page (an index into ``JourneyRecord/pages``) the step starts from, when not the one before: a test
        /// that opens several links of one page.
        package var from: Int?
        /// The page the step starts from when the journey never reached it: a test that shows a route from a page
        /// it did not show first.
        package var elsewhere: Elsewhere?

        package init(
            label: String?, presentation: String, tab: Bool = false, from: Int? = nil, elsewhere: Elsewhere? = nil
        ) {
            self.label = label
            self.presentation = presentation
            self.tab = tab ? true : nil
            self.from = from
            self.elsewhere = elsewhere
        }
    }

    /// A page off the journey's way that one of its steps starts from.
    package struct Elsewhere: Codable, Sendable, Hashable {
        package var path: String
        /// Its title, or its path when the site has no such page.
        package var title: String
        /// Its screen kind's id, when the site has the page.
        package var kind: String?
    }

    package static let declared = "declared"
    package static let test = "test"
    /// The shortest way in to a screen kind (``FlowGraph/Kind/wayIn``), which its flow map page shows.
    package static let shortest = "shortest"

    package var name: String
    /// ``declared``, ``test`` or ``shortest``.
    package var source: String
    /// Where it is declared (`Module/File.swift:12`), or the test suite's coverage file name.
    package var location: String?
    /// The path of each page reached, the start first; as far as it goes when broken.
    package var pages: [String]
    /// Each page's title, as the site shows it; a test's page the site lacks shows its path.
    package var titles: [String]
    /// Each page's screen kind id.
    package var kinds: [String]
    /// One fewer than ``pages``.
    package var steps: [Step]
    /// The step that breaks it, from 1 (0 for a start that is no page); `nil` when it holds.
    package var brokenAtStep: Int?
    /// Why it breaks: its `journey-broken` finding's message, in the site's language.
    package var broken: String?
    /// The link text the breaking step looks for on the last page, when it names one.
    package var wanted: String?

    package init(
        name: String, source: String, location: String?, pages: [String], titles: [String], kinds: [String],
        steps: [Step], brokenAtStep: Int? = nil, broken: String? = nil, wanted: String? = nil
    ) {
        (self.name, self.source, self.location) = (name, source, location)
        (self.pages, self.titles, self.kinds, self.steps) = (pages, titles, kinds, steps)
        (self.brokenAtStep, self.broken, self.wanted) = (brokenAtStep, broken, wanted)
    }

    /// A declared journey's record without its source line, which moves with the code; a test's keeps its suite.
    package var withoutLocation: JourneyRecord {
        var record = self
        if source == Self.declared { record.location = nil }
        return record
    }

    /// The taps it takes: one a step.
    package var taps: Int { steps.count }
}

extension JourneyRecord {
    /// The journey as the `.journey` snapshot keeps it, in the shape of `graph --from … --to …`'s way:
    ///
    /// ```
    /// From the home page to Luke's homeworld (declared): 2 taps
    /// Star Wars Holocron (/)
    ///   → 'Luke Skywalker' (push) → Luke Skywalker (/characters/luke-skywalker/)
    ///   → 'Tatooine' (root) → Tatooine (/planets/tatooine/)
    /// ```
    ///
    /// A test's step, which shows a route rather than follow a link, has no link text; one shown from an earlier
    /// page than the one before names it, as one shown from a page the journey never reached does. No source
    /// line: moving the code changes nothing.
    package var text: String {
        var lines = ["\(name) (\(source)): \(taps) \(taps == 1 ? "tap" : "taps")"]
        guard let first = pages.first else { return lines[0] + "\n" }
        lines.append("\(titles[0]) (\(first))")
        for (index, step) in steps.enumerated() {
            var link = step.label.map { "'\($0)' " } ?? ""
            if step.tab == true { link = "tab " + link }
            if let from = step.from { link = "from \(titles[from]) " + link }
            if let elsewhere = step.elsewhere {
                link = "from \(elsewhere.title) (\(elsewhere.path), off the way) " + link
            }
            lines.append("  → \(link)(\(step.presentation)) → \(titles[index + 1]) (\(pages[index + 1]))")
        }
        if let brokenAtStep { lines.append("breaks at step \(brokenAtStep): \(broken ?? "")") }
        return lines.joined(separator: "\n") + "\n"
    }
}
