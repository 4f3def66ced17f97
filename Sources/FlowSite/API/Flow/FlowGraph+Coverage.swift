import Foundation

extension FlowGraph {
    /// The transitions an app's own tests take, as FlowSiteTesting's `.flowCoverage()` trait records them, one file
    /// per test suite. A build draws the untested ones apart on the flow map; flow lint counts them.
    ///
    /// ```swift
    /// var builder = SiteBuilder(coordinator: app)
    /// builder.flowCoverage = try FlowGraph.Coverage.load(from: [URL(fileURLWithPath: "flow-coverage")])
    /// ```
    public struct Coverage: Sendable, Hashable {
        /// One transition a test took: from a screen kind to another (by their ids), presented one way; in a
        /// coverage file, `{"from": …, "presentation": …, "to": …}`.
        package struct Transition: Sendable, Hashable, Comparable, CustomStringConvertible, Codable {
            /// The id of the screen kind on top of the stack when the test's navigator was called.
            package let from: String
            /// The id of the screen kind the test showed.
            package let to: String
            /// How the test showed it.
            package let presentation: Presentation

            /// A transition between the kinds with ids `from` and `to`, shown as `presentation`.
            package init(from: String, to: String, presentation: Presentation) {
                self.from = from
                self.to = to
                self.presentation = presentation
            }

            package var description: String { "\(from) → \(to) (\(presentation))" }

            private enum CodingKeys: String, CodingKey { case from, to, presentation }

            /// - Throws: `DecodingError.dataCorrupted` saying what was taken, for an unknown presentation.
            package init(from decoder: any Decoder) throws {
                let fields = try decoder.container(keyedBy: CodingKeys.self)
                from = try fields.decode(String.self, forKey: .from)
                to = try fields.decode(String.self, forKey: .to)
                let name = try fields.decode(String.self, forKey: .presentation)
                guard let presentation = Presentation(rawValue: name) else {
                    let names = Presentation.allCases.map(\.rawValue).joined(separator: ", ")
                    throw DecodingError.dataCorruptedError(
                        forKey: .presentation, in: fields,
                        debugDescription: "took \(from) → \(to) as '\(name)', which is not a presentation (\(names))")
                }
                self.presentation = presentation
            }

            package func encode(to encoder: any Encoder) throws {
                var fields = encoder.container(keyedBy: CodingKeys.self)
                try fields.encode(from, forKey: .from)
                try fields.encode(to, forKey: .to)
                try fields.encode(presentation.rawValue, forKey: .presentation)
            }

            package static func < (a: Transition, b: Transition) -> Bool {
                (a.from, a.to, a.presentation.rawValue) < (b.from, b.to, b.presentation.rawValue)
            }
        }

        /// Every transition some test took.
        package let transitions: Set<Transition>
        /// Each test's pages in the order it showed them, suites in the order read, tests by name.
        package private(set) var journeys: [TestJourney] = []

        /// One coordinator test's pages, from its coverage file's `journeys`.
        package struct TestJourney: Sendable, Hashable {
            /// The coverage file's name: the test suite's, `StarWarsAppTests.CoordinatorTests`.
            package var suite: String
            /// The test's name, `enteringTheFlowPushesItsList()`.
            package var test: String
            package var steps: [FlowCoverageFile.Step]
        }
        /// The coverage files each transition was read from, in order, for naming stale ones; empty for coverage
        /// made in code.
        package private(set) var files: [Transition: [String]] = [:]

        /// Coverage of exactly `transitions`, such as a test's own, or none to start merging into.
        package init(_ transitions: some Sequence<Transition>) {
            self.transitions = Set(transitions)
        }

        /// Whether both hold the same transitions, whichever files they were read from.
        public static func == (a: Coverage, b: Coverage) -> Bool { a.transitions == b.transitions }

        /// Hashes the transitions, as ``==(_:_:)`` compares them.
        public func hash(into hasher: inout Hasher) { hasher.combine(transitions) }

        /// The id tab selections start from in coverage, lint and the graph's exports, as the map draws them from
        /// its tab bar box: `RecordingNavigator.selectTab(_:on:)` records a selection from it, not from the kind on
        /// top of the stack.
        public static let tabBar = "tab-bar"

        /// Whether some test took `transition` (same kinds, same presentation); a transition that is only tab
        /// selections is taken from the tab bar too.
        package func covers(_ transition: FlowGraph.Transition) -> Bool {
            covers(
                from: transition.from, to: transition.to, presentation: transition.presentation,
                onlyTabs: transition.isTabOnly)
        }

        /// ``covers(_:)`` by the transition's parts.
        package func covers(from: String, to: String, presentation: Presentation, onlyTabs: Bool) -> Bool {
            transitions.contains(Transition(from: from, to: to, presentation: presentation))
                || (onlyTabs && transitions.contains(Transition(from: Self.tabBar, to: to, presentation: presentation)))
        }

        /// The coverage of both.
        public func merging(_ other: Coverage) -> Coverage {
            var merged = Coverage(transitions.union(other.transitions))
            merged.journeys = journeys + other.journeys
            merged.files = files.merging(other.files) { mine, theirs in mine + theirs.filter { !mine.contains($0) } }
            return merged
        }

        /// The transitions some test took that `graph` no longer has, sorted; re-recording the coverage drops them.
        package func stale(in graph: FlowGraph) -> [Transition] {
            var current = Set(
                graph.transitions.map {
                    Transition(from: $0.from, to: $0.to, presentation: $0.presentation)
                })
            for transition in graph.transitions where transition.tabSelections > 0 {
                current.insert(Transition(from: Self.tabBar, to: transition.to, presentation: transition.presentation))
            }
            return transitions.filter { !current.contains($0) }.sorted()
        }

        /// Flow lint's notes on ``stale(in:)``: one per coverage file that names such transitions, in path order.
        func staleNotes(in graph: FlowGraph, _ say: LintWords) -> [String] {
            var byFile: [String: [Transition]] = [:]
            for transition in stale(in: graph) {
                for file in files[transition] ?? [say("lintCoverageGiven")] {
                    byFile[file, default: []].append(transition)
                }
            }
            return byFile.keys.sorted().map { file in
                let stale = byFile[file]!
                return say(
                    "lintStaleCoverage", count: stale.count,
                    ["file": file, "transitions": stale.map(\.description).joined(separator: ", ")])
            }
        }

        /// Reads coverage files and merges them: each URL is a file, or a folder whose `.json` files (in its
        /// subfolders too) are read.
        /// - Throws: ``FlowSiteError`` naming the file or folder that is missing or isn't a coverage file.
        public static func load(from urls: [URL]) throws -> Coverage {
            var files: [Transition: [String]] = [:]
            var journeys: [TestJourney] = []
            for url in urls {
                for file in try FlowCoverageFile.files(at: url) {
                    let data: Data
                    do {
                        data = try Data(contentsOf: file)
                    } catch {
                        throw FlowSiteError(
                            .flowCoverage(path: file.path, message: "it can't be read (\(error.localizedDescription))"))
                    }
                    let read = try FlowCoverageFile(json: data, source: file.path)
                    for transition in read.coverage.transitions where files[transition]?.contains(file.path) != true {
                        files[transition, default: []].append(file.path)
                    }
                    let suite = file.deletingPathExtension().lastPathComponent
                    for (test, steps) in (read.journeys ?? [:]).sorted(by: { $0.key < $1.key }) where steps.count > 1 {
                        journeys.append(TestJourney(suite: suite, test: test, steps: steps))
                    }
                }
            }
            var coverage = Coverage(files.keys)
            coverage.files = files
            coverage.journeys = journeys
            return coverage
        }

        /// How many of each flow's transitions (those starting from its kinds) the tests take, in flow order.
        package func counts(in graph: FlowGraph) -> [FlowCount] {
            graph.flows.map { flow in
                let members = Set(flow.kinds.map(\.id))
                let own = graph.transitions.filter { members.contains($0.from) }
                return FlowCount(flow: flow.name, total: own.count, untested: own.filter { !covers($0) })
            }
        }

        /// How many of one flow's transitions the tests take.
        package struct FlowCount: Sendable, Hashable {
            /// The flow's name.
            package let flow: String
            /// The transitions that start from the flow's kinds.
            package let total: Int
            /// Those no test takes, in the graph's order.
            package let untested: [FlowGraph.Transition]
            /// Those some test takes.
            package var tested: Int { total - untested.count }
        }
    }
}
