import Foundation

/// Words by key with `{name}` placeholders filled: an app's ``SiteInfo/labels`` over the built-in English, and
/// counted words (`key.one`, `key.other`, …) by the language's plural rules. The one way FlowSite writes a word;
/// where no site is at hand, ``english(_:count:_:)``.
package struct Wording: Sendable {
    /// A key it lacks reads as in ``builtIn``.
    let own: [String: String]
    /// `nil` counts as English does (`one` for 1, else `other`).
    let rules: PluralRules?

    init(_ own: [String: String] = [:], rules: PluralRules? = nil) {
        self.own = own
        self.rules = rules
    }

    /// Fills each `{name}` of `values` in one pass, so a value that holds "{title}" stays as it is.
    func text(_ key: String, _ values: [String: String] = [:]) -> String {
        let template = own[key] ?? Self.builtIn[key] ?? key
        var text = ""
        var rest = template[...]
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            text += rest[..<open]
            let name = String(rest[rest.index(after: open)..<close])
            text += values[name] ?? String(rest[open...close])
            rest = rest[rest.index(after: close)...]
        }
        return text + rest
    }

    func text(_ key: String, count: Int, _ values: [String: String] = [:]) -> String {
        text(resolved(key, count: count), values)
    }

    /// `key.<category>`, or `key.other` when neither table has that category. Words the app's table lacks are
    /// the built-in English ones, counted by English rules: "1 page", never "1 pages" by another language's.
    func resolved(_ key: String, count: Int) -> String {
        let translated = own["\(key).other"] != nil
        let english: PluralRules.Category = count == 1 ? .one : .other
        return resolved(key, category: translated ? rules?.category(for: count) ?? english : english)
    }

    private func resolved(_ key: String, category: PluralRules.Category) -> String {
        let specific = "\(key).\(category.rawValue)"
        return own[specific] != nil || Self.builtIn[specific] != nil ? specific : "\(key).other"
    }

    /// The keys of ``SiteInfo/defaultLabels`` this table leaves to English (counted ones per category used).
    func keysFallingBack() -> [String] {
        var keys: Set<String> = []
        for key in Self.site.keys where !Self.counted.contains(String(key.prefix { $0 != "." })) && own[key] == nil {
            keys.insert(key)
        }
        for key in Self.counted {
            for category in rules?.categories ?? [.one, .other] {
                let form = resolved(key, category: category)
                if own[form] == nil { keys.insert(form) }
            }
        }
        return keys.sorted()
    }

    /// The warning that lists the keys `labels` leave to English; `nil` for an English site, empty labels (the
    /// whole layout is English), or a full table.
    static func fallbackWarning(language: String, labels: [String: String], rules: PluralRules?) -> String? {
        guard !labels.isEmpty, Locale.Language(identifier: language).languageCode != .english else { return nil }
        let keys = Wording(labels, rules: rules).keysFallingBack()
        guard !keys.isEmpty else { return nil }
        return """
            \(language): the site's labels lack \(english("countKeys", count: keys.count)), shown in the built-in \
            English; \

            """
                + "add them to SiteInfo.labels: " + keys.joined(separator: ", ")
    }

    /// The English counted `key`, `{count}` filled with plain digits: for texts made without a site.
    ///
    /// ```swift
    /// Wording.english("errorBrokenLinks", count: 1)  // "1 broken link; the previous site …"
    /// ```
    package static func english(_ key: String, count: Int, _ values: [String: String] = [:]) -> String {
        Wording().text(key, count: count, values.merging(["count": String(count)]) { given, _ in given })
    }

    /// ``SiteInfo/countedLabels``.
    static let counted = [
        "flowFlowsCount", "flowKindsCount", "flowKindsOfScreen", "flowTabs", "kindPages", "searchResults",
        "lintUnhandledIntentOnPages", "lintDeadEnd", "lintDeadEndTrail", "lintEmptyState", "lintUnlinkableRoute",
        "lintDeepLinkRoundTrip",
        "lintUnknownDeepLink", "lintClickDepth", "lintClicks", "lintClickDepthRun", "lintModalOverModal",
        "lintModalOnly",
        "lintEmptyLinkLabel", "lintAmbiguousLinkLabel", "lintUntestedTransition", "lintStaleCoverage", "journeyTaps",
        "flowJourneysCount"
    ]

    static let builtIn: [String: String] = site.merging(engine) { site, _ in site }

    /// ``SiteInfo/defaultLabels``: the words an app's labels may give in its language.
    static let site: [String: String] = [
        "skipToContent": "Skip to content",
        "mainNavigation": "Main",
        "breadcrumb": "Breadcrumb",
        "trailLead": "One way here:",
        "search": "Search the site",
        "searchNoResults": "No results for “{query}”",
        "searchResults.one": "{count} result",
        "searchResults.other": "{count} results",
        "pagination": "Pagination",
        "previous": "Previous",
        "next": "Next",
        "page": "Page {number}",
        "close": "Close",
        "closeAndReturn": "{close}: back to the page you came from, or else to {title}",
        "notFoundTitle": "Page not found",
        "notFoundMessage":
            "The page you were looking for could not be found. It may have moved, or the address may be mistyped.",
        "notFoundHome": "Return to the {site} home page",
        "startsAt": "This site starts at {page}.",
        "linkOpensDialog": "(opens a dialog)",
        "linkLeavesSite": "(leaves the site)",
        "linkOpensMail": "(opens your email app)",
        "flowMap": "Flow map",
        "languages": "Languages",
        "fallbackNote": "Some of this page's text is not yet translated and is shown in {language}: {texts}.",
        "flowMapSummary": "Every kind of screen of the site and how one leads to another.",
        "flowMapIntro": """
        The site has {kinds} in {flows}, {pages} in all. Each box is a kind of screen and leads to a page of \
        it; each arrow is a way from one kind to another, with the number of links it stands for.
        """,
        "flowMapMarks": """
        A badge on a box names a flow lint rule that pages of that kind break and how many, and leads to the \
        finding below; a dashed box that says “{noWayIn}” is a kind of screen the app declares but no link \
        reaches. Point at a box to see the Swift file and line that make its screen.
        """,
        "flowMapCaption": "Every kind of screen and every transition between kinds.",
        "flowFlows": "Flows",
        "flowKindsOfScreen.one": "{count} kind of screen",
        "flowKindsOfScreen.other": "{count} kinds of screen",
        "flowFlowsCount.one": "{count} flow",
        "flowFlowsCount.other": "{count} flows",
        "flowKindsCount.one": "({count} kind)",
        "flowKindsCount.other": "({count} kinds)",
        "flowOf": "{flow} flow",
        "flowIntro": """
        The {kinds} kinds of screen of the {flow} flow, and the kinds outside it that lead to them or that they \
        lead to. Each box leads to a view of that kind and its neighbours.
        """,
        "flowSummary": "The screens of the {flow} flow and how they connect.",
        "flowCaption": "The {flow} flow and its neighbours.",
        "kindIntro":
            "{kind}: {pages} in the {flow} flow, {minimum} to {maximum} clicks from the start page (median {median}).",
        "kindIntroOneDepth": "{kind}: {pages} in the {flow} flow, each {clicks} from the start page.",
        "kindIntroOnePage": "{kind}: {pages} in the {flow} flow, {clicks} from the start page.",
        "kindExample": "A page of this kind:",
        "kindWayIn": "The shortest way in",
        "kindWayInIntro": "{taps} from {start} to {page}, the nearest page of this kind:",
        "kindTitle": "{kind} screens",
        "kindCaption": "{kind} and the kinds of screen it connects to.",
        "kindSummary": "Where {kind} pages lead and what leads to them.",
        "kindPages.one": "{count} page",
        "kindPages.other": "{count} pages",
        "kindLeadsTo": "{kind} leads to",
        "kindReachedFrom": "{kind} is reached from",
        "flowKinds": "Screen kinds",
        "flowTransitions": "Transitions",
        "flowNoTransitions": "None.",
        "flowKind": "Kind",
        "flowFlow": "Flow",
        "flowPages": "Pages",
        "flowDepth": "Clicks (least / median / most)",
        "flowExample": "Example",
        "flowSource": "Source",
        "flowNoWayIn": "no way in",
        "flowDeepLinked": "deep link",
        "flowTabBar": "Tab bar",
        "flowLegendNeighbour": "a kind of screen of another flow, linked to or from this one",
        "kindLegendNeighbour": "a kind of screen this one leads to, or that leads to it",
        "flowTabs.one": "{count} tab",
        "flowTabs.other": "{count} tabs",
        "flowFindings": "Flow lint findings",
        "flowNoFindings": "Flow lint found nothing to report.",
        "flowSuppressed": "Suppressed: {reason}",
        "flowFrom": "From",
        "flowTo": "To",
        "flowPresentation": "Presentation",
        "flowLinks": "Links",
        "flowCoverageIntro": """
        The app’s tests take {tested} of its {total} transitions. A transition no test takes is drawn as a \
        faint line with a hollow arrow, and its title and the tables say “{untested}”.
        """,
        "flowCoverageCount": "tests take {tested} of {total} transitions",
        "flowCoverageOfFlow": "The app’s tests take {tested} of the {total} transitions that start in the {flow} flow.",
        "flowLegendUntested": "{untested}: no test of the app takes it",
        "flowUntested": "untested",
        "flowTested": "tested",
        "flowTests": "Tests",
        "journeys": "Journeys",
        "journeysSummary": "The paths readers take through the site, page by page.",
        "journeysIntro":
            """
        The paths readers take through the site. The app declares {declared}, and every build takes them over \
        the site’s pages; its tests take {tested}. Each leads to its story, page by page.
        """,
        "journeyName": "Journey",
        "journeyPages": "Pages",
        "journeyTapsColumn": "Taps",
        "journeyState": "State",
        "journeyDeclared": "declared by the app",
        "journeyTest": "a test",
        "journeyHolds": "holds",
        "journeyBreaksAt": "Breaks at step {step}:",
        "journeyTaps.one": "{count} tap",
        "journeyTaps.other": "{count} taps",
        "journeyIntroDeclared":
            "{taps} from {start} to {end}, declared at {location} and taken over the site on every build.",
        "journeyIntroTest": "The pages the test {test} shows, in its order: {taps}.",
        "journeySummary": "The journey “{journey}”, page by page.",
        "journeyFollows": "Follows {label}",
        "journeyTab": "Selects {label} in the tab bar",
        "journeyShows": "Shows {page}",
        "journeyOpens": "Opens {page}",
        "journeyFromElsewhere": "Shown from {page}, a page this journey does not reach",
        "journeyEnds": "The journey ends here.",
        "journeyStops": "The journey stops here.",
        "journeyCaption":
            "The journey on the app’s flow map: its kinds of screen and transitions stand out, the rest is faded.",
        "journeysThroughHere": "Journeys through here",
        "journeyThrough": "at {page}, page {position} of {count}",
        "flowJourneysIntro":
            "The app has {journeys}: paths through its pages, each told page by page with its way drawn on this map.",
        "flowJourneysCount.one": "{count} journey",
        "flowJourneysCount.other": "{count} journeys",
        "flowJourneysLink": "All journeys",
        "presentation.push": "push: opens over the page",
        "presentation.modal": "modal: a dialog over the page",
        "presentation.root": "root: starts a new trail",
        "presentation.replace": "replace: takes the page's place",
        "presentation.back": "back: returns to a page below",
        "lintUnhandledIntent":
            "The link '{label}' on {path} ({route}) leads to {target}, but following it showed {shown}",
        "lintUnhandledIntentOnPages.one": """
        The link '{label}' on {path} ({route}) leads to {target}, but following it showed {shown}; {links} \
        such links on {count} {kind} page
        """,
        "lintUnhandledIntentOnPages.other": """
        The link '{label}' on {path} ({route}) leads to {target}, but following it showed {shown}; {links} \
        such links on {count} {kind} pages
        """,
        "lintShowedNothing": "nothing",
        "lintUnusedSuppression":
            "The suppression of {rule} for {target} (“{reason}”) leaves out no finding: remove it or correct it",
        "lintSuppressionKind": "the kind {kind}",
        "lintSuppressionPage": "the page {page}",
        "lintSuppressionNowhere": "no kind or page",
        "lintUnreachableScreen":
            "No page of the kind {kind} ({id}) is reachable: no link from the start page leads to one.",
        "lintDeadEnd.one": """
        {count} {kind} page has no link of its own, only the site-wide navigation and its trail: e.g. {path} \
        ({route})
        """,
        "lintDeadEnd.other": """
        {count} {kind} pages have no link of their own, only the site-wide navigation and their trail: e.g. \
        {path} ({route})
        """,
        "lintDeadEndTrail.one":
            "{count} {kind} page has no link of its own; only its trail leads back: e.g. {path} ({route})",
        "lintDeadEndTrail.other":
            "{count} {kind} pages have no link of their own; only their trail leads back: e.g. {path} ({route})",
        "lintEmptyState.one": "{count} {kind} page shows its empty state: e.g. {path} ({route})",
        "lintEmptyState.other": "{count} {kind} pages show their empty state: e.g. {path} ({route})",
        "lintUnlinkableRoute.one": "{count} {kind} page has no deep link: e.g. {path} ({route})",
        "lintUnlinkableRoute.other": "{count} {kind} pages have no deep link: e.g. {path} ({route})",
        "lintDeepLinkRoundTrip.one": """
        {count} {kind} page doesn't come back from its deep link: e.g. {route} links to {url}, which the \
        app's parser reads as {parsed}
        """,
        "lintDeepLinkRoundTrip.other": """
        {count} {kind} pages don't come back from their deep link: e.g. {route} links to {url}, which the \
        app's parser reads as {parsed}
        """,
        "lintUnknownDeepLink.one":
            "{count} unknown link opens a screen instead of the not-found one: e.g. {url} opens {parsed}",
        "lintUnknownDeepLink.other":
            "{count} unknown links open a screen instead of the not-found one: e.g. {url} opens {parsed}",
        "lintClickDepth.one": """
        {count} {kind} page is more than {maximumClicks} from the start page, at {deepestClicks}{run}: \
        {path} ({route})
        """,
        "lintClickDepth.other": """
        {count} {kind} pages are more than {maximumClicks} from the start page, the deepest \
        {deepestClicks}{run}: {path} ({route})
        """,
        "lintClicks.one": "{count} click",
        "lintClicks.other": "{count} clicks",
        "lintClickDepthRun.one": ", {count} of them {from} → {to} ({presentation})",
        "lintClickDepthRun.other": ", {count} of them {from} → {to} ({presentation}) in a row",
        "lintClickDepthPast": ", the click past the limit {from} → {to} ({presentation})",
        "lintModalOverModal.one":
            "{kind} is presented as a dialog over a dialog once: e.g. {path} ({route}) over {fromPath} ({fromRoute})",
        "lintModalOverModal.other": """
        {kind} is presented as a dialog over a dialog {count} times: e.g. {path} ({route}) over {fromPath} \
        ({fromRoute})
        """,
        "lintJourneyStart": "Journey '{journey}' starts at {route}, which is not a page of the site",
        "lintJourneyNoLink":
            "Journey '{journey}' breaks at step {step}: no link '{label}' on {page} ({path}); it has {offered}",
        "lintJourneyNoTab": "Journey '{journey}' breaks at step {step}: no tab '{label}'; the tab bar has {offered}",
        "lintJourneyTabOnDialog":
            "Journey '{journey}' breaks at step {step}: {page} ({path}) is a dialog, with no tab bar for '{label}'",
        "lintJourneyPresented": """
        Journey '{journey}' breaks at step {step}: '{label}' on {page} ({path}) is presented as {shown}, not \
        {expected}
        """,
        "lintJourneyNotShown":
            "Journey '{journey}' breaks at step {step}: the app shows nothing for '{label}' on {page} ({path})",
        "lintJourneyExpectation": "Journey '{journey}' breaks at step {step}: {page} ({path}) does not show {expected}",
        "lintJourneyTitle": "the title '{title}'",
        "lintJourneyEmptyState": "the empty state",
        "lintJourneyEnding": "the end of its flow",
        "lintJourneyFailed": "Journey '{journey}' breaks at step {step}: {route} could not be made ({error})",
        "lintJourneyNothing": "no links",
        "lintModalOnly.one": "{count} {kind} page is reached only from dialogs: e.g. {path} ({route})",
        "lintModalOnly.other": "{count} {kind} pages are reached only from dialogs: e.g. {path} ({route})",
        "lintEmptyLinkLabel.one":
            "{count} {kind} page has links without text: e.g. {path} links to {target} with no text",
        "lintEmptyLinkLabel.other":
            "{count} {kind} pages have links without text: e.g. {path} links to {target} with no text",
        "lintAmbiguousLinkLabel.one": """
        {count} {kind} page uses one link text for different pages: e.g. on {path}, '{label}' leads to \
        {first} and to {second}
        """,
        "lintAmbiguousLinkLabel.other": """
        {count} {kind} pages use one link text for different pages: e.g. on {path}, '{label}' leads to \
        {first} and to {second}
        """,
        "lintUntestedTransition.one":
            "No test takes {from} → {to} ({presentation}), {count} link: e.g. {source} → {target}",
        "lintUntestedTransition.other":
            "No test takes {from} → {to} ({presentation}), {count} links: e.g. {source} → {target}",
        "lintNoScreenKinds": """
        unreachable-screen: the route type declares no screenKindExamples, so there is nothing to compare the \
        reached kinds with.
        """,
        "lintNoCoverage": """
        untested-transition: no flow coverage was given (FlowLinter.coverage, SiteBuilder.flowCoverage), so \
        there is nothing to compare the transitions with.
        """,
        "lintRuleOff": "{rule} is off: {reason}",
        "lintStaleCoverage.one": """
        flow coverage: {file} names {count} transition the flow no longer has: {transitions}; re-record it \
        (run its tests with FLOW_COVERAGE_RECORD=all) and remove the entries of tests that are gone.
        """,
        "lintStaleCoverage.other": """
        flow coverage: {file} names {count} transitions the flow no longer has: {transitions}; re-record it \
        (run its tests with FLOW_COVERAGE_RECORD=all) and remove the entries of tests that are gone.
        """,
        "lintCoverageGiven": "the coverage given"
    ]

    /// The engine's own words, only ever English: texts made where no site is at hand. Not in
    /// ``SiteInfo/defaultLabels``, since no app's table is asked for them.
    static let engine: [String: String] = [
        "errorScreensFailed.one": "{count} screen failed to build and the app has no error screen for it:",
        "errorScreensFailed.other": "{count} screens failed to build and the app has no error screen for them:",
        "errorBrokenLinks.one": "{count} broken link; the previous site was left as it was:",
        "errorBrokenLinks.other": "{count} broken links; the previous site was left as it was:",
        "countPages.one": "{count} page",
        "countPages.other": "{count} pages",
        "countLinks.one": "{count} link",
        "countLinks.other": "{count} links",
        "countTransitions.one": "{count} transition",
        "countTransitions.other": "{count} transitions",
        "countKeys.one": "{count} key",
        "countKeys.other": "{count} keys",
        "countFiles.one": "{count} file",
        "countFiles.other": "{count} files",
        "countKinds.one": "{count} kind",
        "countKinds.other": "{count} kinds",
        "countJourneys.one": "{count} journey",
        "countJourneys.other": "{count} journeys",
        "countScreenKinds.one": "{count} screen kind",
        "countScreenKinds.other": "{count} screen kinds",
        "countOtherFiles.one": "{count} other file",
        "countOtherFiles.other": "{count} other files",
        "countFlowMapPages.one": "{count} flow map page",
        "countFlowMapPages.other": "{count} flow map pages",
        "countMoreChanges.one": "{count} more change",
        "countMoreChanges.other": "{count} more changes",
        "countMoreSections.one": "{count} more section",
        "countMoreSections.other": "{count} more sections",
        "countErrors.one": "{count} error",
        "countErrors.other": "{count} errors",
        "countWarnings.one": "{count} warning",
        "countWarnings.other": "{count} warnings",
        "countNotes.one": "{count} note",
        "countNotes.other": "{count} notes",
        "countTranslationProblems.one": "{count} translation problem",
        "countTranslationProblems.other": "{count} translation problems",
        "diffLayoutOnly.one": "{count} page differs only in the layout around its content",
        "diffLayoutOnly.other": "{count} pages differ only in the layout around their content",
        "diffKindPagesAdded.one": "{kind} page added",
        "diffKindPagesAdded.other": "{count} {kind} pages added",
        "diffKindPagesRemoved.one": "{kind} page removed",
        "diffKindPagesRemoved.other": "{count} {kind} pages removed"
    ]
}
