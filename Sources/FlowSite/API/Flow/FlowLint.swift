import Foundation

/// A rule of flow lint: a kind of hole in an app's flow, with a stable id that configurations and suppressions use.
public struct FlowLintRule: Sendable, Hashable, Identifiable, CustomStringConvertible {
    /// The stable id, such as `dead-end`.
    public let id: String
    /// How serious a finding of this rule is.
    public let level: Level
    /// One sentence: what the rule finds.
    public let summary: String
    /// One sentence: what to do about a finding.
    public let help: String
    /// Whether the rule runs unless a configuration turns it off; a rule that is off by
    /// default runs when ``FlowLintConfiguration/enabledRules`` names it.
    public var isOnByDefault = true

    public var description: String { id }

    /// A view model offers a link whose route no coordinator or flow controller shows.
    public static let unhandledIntent = FlowLintRule(
        id: "unhandled-intent", level: .error,
        summary: "A screen offers a link whose route no coordinator or flow controller shows.",
        help:
            "Handle the route in the coordinator that owns it (its navigate or show method), or stop offering the link."
    )
    /// A kind of screen the app declares that no link reaches.
    public static let unreachableScreen = FlowLintRule(
        id: "unreachable-screen", level: .warning,
        summary: "A kind of screen the app declares is never reached from the start page.",
        help: "Link to the screen from a screen that is reached, or remove the route case."
    )
    /// A page with no way out but the site-wide navigation, though it shows content and isn't meant to end the flow.
    public static let deadEnd = FlowLintRule(
        id: "dead-end", level: .warning,
        summary: "A page has no way on of its own: only the site-wide navigation or its trail back leads anywhere.",
        help: """
            Give the screen an action that leads on (related screens, the list it belongs to), present it as a dialog, \
            or mark a page that ends the flow on purpose with Page.ending = .intended.
            """
    )
    /// A page that shows its empty state (``Page/Ending/emptyState``). Off by default.
    public static let emptyState = FlowLintRule(
        id: "empty-state", level: .note,
        summary: "A page shows its empty state (nothing loaded to show).",
        help: "Check that the empty state says what to do next, or that the data should have something here.",
        isOnByDefault: false
    )
    /// A page more clicks from the start page than the configuration allows.
    public static let clickDepth = FlowLintRule(
        id: "click-depth", level: .warning,
        summary: "A page is more clicks from the start page than the configured maximum.",
        help: "Link to it from a shallower screen, show more pages in a list's pagination, or raise maximumClickDepth."
    )
    /// A dialog presented over a dialog.
    public static let modalOverModal = FlowLintRule(
        id: "modal-over-modal", level: .warning,
        summary: "A dialog is presented over another dialog.",
        help: "Present the second screen with push or root, or replace the first dialog."
    )
    /// A page that only dialogs lead to.
    public static let modalOnly = FlowLintRule(
        id: "modal-only", level: .warning,
        summary: "A page can only be reached through a dialog.",
        help: "Link to the screen from a screen that isn't a dialog, so a reader can find it without opening one."
    )
    /// A link without text.
    public static let emptyLinkLabel = FlowLintRule(
        id: "empty-link-label", level: .warning,
        summary: "A link has no text, so screen readers and search engines can't tell where it leads.",
        help: "Give the action a label."
    )
    /// One link text on a page that leads to different pages.
    public static let ambiguousLinkLabel = FlowLintRule(
        id: "ambiguous-link-label", level: .warning,
        summary: "One link text on a page leads to different pages, which a list of links can't tell apart.",
        help: "Make the labels tell their targets apart (add what differs: a year, a place, a number)."
    )
    /// A transition between screen kinds that none of the app's tests takes (``FlowGraph/Coverage``). Off by default.
    public static let untestedTransition = FlowLintRule(
        id: "untested-transition", level: .warning,
        summary: "No test of the app takes a transition between two kinds of screen (by the flow coverage given).",
        help: """
            Drive the navigation in a coordinator test with a RecordingNavigator under the .flowCoverage() trait, \
            or suppress the finding with a reason.
            """,
        isOnByDefault: false
    )

    /// A page's route that no deep link opens (``DeepLinks/link``) though other pages of its kind have one.
    public static let unlinkableRoute = FlowLintRule(
        id: "unlinkable-route", level: .warning,
        summary: "A page's route has no deep link, though other pages of its kind have one.",
        help: "Return a link for the route from DeepLinks.link, or suppress the finding for pages no link should open."
    )
    /// A deep link that the app's parser reads back as another route, or as none.
    public static let deepLinkRoundTrip = FlowLintRule(
        id: "deep-link-round-trip", level: .error,
        summary: "A page's deep link opens another screen: the app's parser reads it back as another route.",
        help: "Make DeepLinks.link and the app's parser agree on the link's form (path, query, encoding of names)."
    )
    /// A link the app doesn't know that opens a screen other than its not-found one.
    public static let unknownDeepLink = FlowLintRule(
        id: "unknown-deep-link", level: .warning,
        summary: "A link the app doesn't know opens a screen instead of the not-found one.",
        help: """
            Make the parser match whole links (no extra path segments) and return nil or the not-found route \
            for the rest.
            """
    )

    /// A suppression in the configuration that leaves out no finding: the page or kind it names changed (a
    /// screen gained links), its rule is off, or it names no kind or page.
    public static let unusedSuppression = FlowLintRule(
        id: "unused-suppression", level: .warning,
        summary: "A suppression in the flow lint configuration leaves out no finding.",
        help: "Remove the suppression, or correct its rule, kind or page."
    )

    /// A journey the app declares (``RootCoordinator/journeys``) that the walk can't take to its end.
    public static let journeyBroken = FlowLintRule(
        id: "journey-broken", level: .warning,
        summary: "A journey the app declares can't be taken: a step's link is missing, presented otherwise, or "
            + "reaches a page that doesn't show what the step expects.",
        help: "Mend the screen or its navigation, or update the journey to the app's new way there."
    )

    /// Every rule, in the order reports list them.
    public static let all: [FlowLintRule] = [
        unhandledIntent, unreachableScreen, deadEnd, emptyState, clickDepth, modalOverModal, modalOnly, emptyLinkLabel,
        ambiguousLinkLabel,
        untestedTransition, unlinkableRoute, deepLinkRoundTrip, unknownDeepLink, journeyBroken, unusedSuppression
    ]

    /// The rule with `id`.
    public static func rule(_ id: String) -> FlowLintRule? { all.first { $0.id == id } }
}

extension FlowLintRule {
    /// How serious a finding is: errors always fail the command line's `lint`; warnings fail it (and a build) only
    /// when strict.
    public enum Level: String, Sendable, Hashable, CaseIterable, Comparable {
        /// Always fails `lint` and a build: a link that leads nowhere, a deep link that breaks.
        case error
        /// A hole in the flow worth fixing; fails only when strict.
        case warning
        /// Information, such as an empty state or an untested transition; never fails.
        case note

        public static func < (lhs: Level, rhs: Level) -> Bool {
            allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
        }
    }
}

/// What flow lint checks, and what it leaves out with a reason: set by ``RootCoordinator/flowLint``, or read
/// from a JSON file that overrides it:
///
/// ```json
/// {
///   "maximumClickDepth": 5,
///   "disabledRules": { "modal-only": "Our dialogs are full screens." },
///   "suppressions": [{ "rule": "dead-end", "page": "/about/credits/", "reason": "The credits end the tour." }]
/// }
/// ```
public struct FlowLintConfiguration: Sendable, Hashable, Codable {
    /// The most clicks from the start page a page may be (the `click-depth` rule).
    public var maximumClickDepth: Int
    /// Rules turned off, by id, each with the reason.
    public var disabledRules: [String: String]
    /// Rules that are off by default (``FlowLintRule/isOnByDefault``) turned on, by id.
    public var enabledRules: [String]
    /// Findings suppressed, each with the reason.
    public var suppressions: [Suppression]

    /// The defaults: every rule on but those off by default, at most 4 clicks deep, nothing suppressed.
    public init(
        maximumClickDepth: Int = 4, disabledRules: [String: String] = [:], enabledRules: [String] = [],
        suppressions: [Suppression] = []
    ) {
        self.maximumClickDepth = maximumClickDepth
        self.disabledRules = disabledRules
        self.enabledRules = enabledRules
        self.suppressions = suppressions
    }

    /// Whether `rule` runs: not turned off, and on by default or turned on.
    public func runs(_ rule: FlowLintRule) -> Bool {
        disabledRules[rule.id] == nil && (rule.isOnByDefault || enabledRules.contains(rule.id))
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        maximumClickDepth = try container.decodeIfPresent(Int.self, forKey: .maximumClickDepth) ?? 4
        disabledRules = try container.decodeIfPresent([String: String].self, forKey: .disabledRules) ?? [:]
        enabledRules = try container.decodeIfPresent([String].self, forKey: .enabledRules) ?? []
        suppressions = try container.decodeIfPresent([Suppression].self, forKey: .suppressions) ?? []
    }

    /// This configuration with `other`'s over it: `other`'s depth, both sets of rules, both sets of suppressions.
    public func merging(_ other: FlowLintConfiguration) -> FlowLintConfiguration {
        FlowLintConfiguration(
            maximumClickDepth: other.maximumClickDepth,
            disabledRules: disabledRules.merging(other.disabledRules) { _, new in new },
            enabledRules: enabledRules + other.enabledRules.filter { !enabledRules.contains($0) },
            suppressions: suppressions + other.suppressions
        )
    }

    /// Reads a configuration file (JSON) and checks it.
    /// - Throws: ``FlowSiteError`` naming the file, and the field and what to do.
    public static func load(from file: URL) throws -> FlowLintConfiguration {
        let data: Data
        do {
            data = try Data(contentsOf: file)
        } catch {
            throw FlowSiteError.lintConfiguration(file: file.path, "it can't be read (\(error.localizedDescription))")
        }
        let configuration: FlowLintConfiguration
        do {
            configuration = try JSONDecoder().decode(FlowLintConfiguration.self, from: data)
        } catch let DecodingError.typeMismatch(type, context), let DecodingError.valueNotFound(type, context) {
            throw FlowSiteError.lintConfiguration(
                file: file.path, "\(Self.field(context.codingPath)) must be \(Self.describe(type))")
        } catch let DecodingError.keyNotFound(key, context) {
            throw FlowSiteError.lintConfiguration(
                file: file.path, "\(Self.field(context.codingPath + [key])) is missing")
        } catch {
            throw FlowSiteError.lintConfiguration(
                file: file.path, "it is not valid JSON (\(error.localizedDescription))")
        }
        do {
            try configuration.validate()
        } catch let error as FlowSiteError {
            guard case .flowLintConfiguration(_, let message) = error.reason else { throw error }
            throw FlowSiteError.lintConfiguration(file: file.path, message)
        }
        return configuration
    }

    /// Checks that every rule id is known and every reason given.
    /// - Throws: ``FlowSiteError`` naming the field.
    public func validate() throws {
        let known = FlowLintRule.all.map(\.id).joined(separator: ", ")
        guard maximumClickDepth >= 1 else {
            throw FlowSiteError.lintConfiguration(
                file: nil, "maximumClickDepth must be 1 or more, not \(maximumClickDepth)")
        }
        for (id, reason) in disabledRules.sorted(by: { $0.key < $1.key }) {
            guard FlowLintRule.rule(id) != nil else {
                throw FlowSiteError.lintConfiguration(
                    file: nil, "disabledRules names the unknown rule '\(id)'; the rules are \(known)")
            }
            guard !reason.allSatisfy(\.isWhitespace) else {
                throw FlowSiteError.lintConfiguration(
                    file: nil, "disabledRules.\(id) needs a reason: say why the rule is off")
            }
        }
        for id in enabledRules {
            guard let rule = FlowLintRule.rule(id) else {
                throw FlowSiteError.lintConfiguration(
                    file: nil, "enabledRules names the unknown rule '\(id)'; the rules are \(known)")
            }
            guard !rule.isOnByDefault else {
                throw FlowSiteError.lintConfiguration(
                    file: nil,
                    """
                    enabledRules names '\(id)', which is on by default; list only rules that are off by default \
                    (\(FlowLintRule.all.filter { !$0.isOnByDefault }.map(\.id).joined(separator: ", ")))
                    """
                )
            }
        }
        for (index, suppression) in suppressions.enumerated() {
            let field = "suppressions[\(index)]"
            guard FlowLintRule.rule(suppression.rule) != nil else {
                throw FlowSiteError.lintConfiguration(
                    file: nil, "\(field).rule is the unknown rule '\(suppression.rule)'; the rules are \(known)")
            }
            guard suppression.kind != nil || suppression.page != nil else {
                throw FlowSiteError.lintConfiguration(
                    file: nil, "\(field) needs a kind (a screen kind's id) or a page (a path such as /about/)")
            }
            guard !suppression.reason.allSatisfy(\.isWhitespace) else {
                throw FlowSiteError.lintConfiguration(
                    file: nil, "\(field).reason is empty: say why the finding is suppressed")
            }
        }
    }

    private static func field(_ path: [any CodingKey]) -> String {
        path.map { $0.intValue.map { "[\($0)]" } ?? "." + $0.stringValue }.joined().drop { $0 == "." }.description
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is Int.Type: "a whole number"
        case is String.Type: "text"
        case is [String: String].Type, is [String: Any].Type: "an object of rule ids and reasons"
        default: "a \(type)"
        }
    }
}

extension FlowLintConfiguration {
    /// One finding left out on purpose: the rule, the kind (by id) or page (by path) it applies to, and why.
    public struct Suppression: Sendable, Hashable, Codable {
        /// The rule's id.
        public var rule: String
        /// A screen kind's id: suppresses the rule's finding for the whole kind.
        public var kind: String?
        /// A page's path from the site root, with slashes on both sides: suppresses it for that page.
        public var page: String?
        /// Why: kept in every report, and in SARIF as the suppression's justification.
        public var reason: String

        /// Suppresses `rule` for a kind or a page, or everywhere when both are `nil`, for `reason`.
        public init(rule: String, kind: String? = nil, page: String? = nil, reason: String) {
            self.rule = rule
            self.kind = kind
            self.page = page
            self.reason = reason
        }

        /// Whether it applies to a finding of `rule` on `kind`.
        func covers(rule: String, kind: String?) -> Bool {
            self.rule == rule && page == nil && self.kind != nil && self.kind == kind
        }
    }
}

extension FlowLintReport {
    /// One hole in the flow: a rule broken by pages of one screen kind (or by one transition).
    public struct Finding: Sendable, Hashable {
        /// The rule broken.
        public let rule: FlowLintRule
        /// The screen kind whose pages break it, if it concerns one.
        public let kind: ScreenKind?
        /// One sentence naming the kind, an example page and the route.
        public let message: String
        /// How many pages (or links) break the rule.
        public let count: Int
        /// A few of the pages, in walk order.
        package let examples: [FlowGraph.PageReference]
        /// The app's code to look at: the screen's, the navigation call behind a `click-depth` or `modal-over-modal`
        /// finding, or the kind's declaration for `unreachable-screen` (``ScreenKind/location``).
        public let location: CodeLocation?
        /// Why the finding is suppressed, when it is.
        public let suppression: String?

        /// Whether it counts: not suppressed.
        public var isActive: Bool { suppression == nil }
    }
}

/// What flow lint found, with the configuration it ran with.
public struct FlowLintReport: Sendable, Hashable {
    /// Every finding, suppressed ones included, in the order of ``FlowLintRule/all``, then of the kinds in the walk.
    public let findings: [Finding]
    /// The configuration used.
    public let configuration: FlowLintConfiguration
    /// What a rule could not check, and each coverage file that names transitions the flow no longer has.
    public let notes: [String]
    /// How many of each flow's transitions the tests take, when flow coverage was given; `nil` otherwise.
    package internal(set) var coverage: [FlowGraph.Coverage.FlowCount]? = nil

    /// The findings that count.
    public var active: [Finding] { findings.filter(\.isActive) }

    /// How many findings of `level` count.
    public func count(_ level: FlowLintRule.Level) -> Int { active.count { $0.rule.level == level } }

    /// Whether a strict run fails: any finding that counts at warning level or above.
    public var failsStrict: Bool { active.contains { $0.rule.level <= .warning } }

    /// Whether any error counts: the command line's `lint` fails on those even when not strict.
    public var hasErrors: Bool { count(.error) > 0 }

    /// One line for a build's summary: "Flow lint: 2 warnings (dead-end 1, click-depth 1)".
    public var summaryLine: String {
        let active = active
        let suppressed = findings.count - active.count
        let tail = suppressed > 0 ? ", \(suppressed) suppressed" : ""
        guard !active.isEmpty else { return "Flow lint: no findings\(tail)" }
        var parts: [String] = []
        for level in FlowLintRule.Level.allCases {
            let count = count(level)
            let key =
                switch level {
                case .error: "countErrors"
                case .warning: "countWarnings"
                case .note: "countNotes"
                }
            if count > 0 { parts.append(Wording.english(key, count: count)) }
        }
        var perRule: [String] = []
        for rule in FlowLintRule.all {
            let count = active.count { $0.rule == rule }
            if count > 0 { perRule.append("\(rule.id) \(count)") }
        }
        return "Flow lint: \(parts.joined(separator: ", ")) (\(perRule.joined(separator: ", ")))\(tail)"
    }
}
