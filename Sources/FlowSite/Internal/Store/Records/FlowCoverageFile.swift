import Foundation

/// One test suite's flow coverage, as the `.flowCoverage()` trait commits it: sorted, key-sorted JSON, so a
/// change reads as a small diff:
///
/// ```json
/// {
///   "format" : 1,
///   "tests" : {
///     "enteringTheFlowPushesItsList()" : [
///       { "from" : "home", "presentation" : "push", "to" : "characters-list" }
///     ]
///   }
/// }
/// ```
///
/// Beside each test's transitions, `journeys` keeps the pages it showed in order (its journey, named after the
/// test): the page it started on, then each route it showed with how.
package struct FlowCoverageFile: Codable, Sendable, Equatable {
    package typealias Transition = FlowGraph.Coverage.Transition

    /// One page of a test's journey.
    package struct Step: Codable, Sendable, Hashable {
        /// The route's page path, `/characters/luke-skywalker/`.
        package var path: String
        /// Its screen kind's id.
        package var kind: String
        /// How the test showed it (a ``Presentation``'s raw value); `nil` for the page it started on.
        package var presentation: String?
        /// Whether it was a tab selection.
        package var tab: Bool?
        /// The page the test showed it from, when not the step before (a test that opens several links of one
        /// page).
        package var from: String?

        package init(
            path: String, kind: String, presentation: Presentation? = nil, tab: Bool = false, from: String? = nil
        ) {
            self.path = path
            self.kind = kind
            self.presentation = presentation?.rawValue
            self.tab = tab ? true : nil
            self.from = from
        }
    }

    /// The file's format; a newer FlowSite may write a higher one.
    package var format = 1
    /// Sorted, without repeats.
    package var tests: [String: [Transition]]
    /// Each test's pages in the order it showed them; absent in a file written before journeys were recorded.
    package var journeys: [String: [Step]]?

    package init(tests: [String: [Transition]] = [:], journeys: [String: [Step]]? = nil) {
        self.tests = tests
        self.journeys = journeys
    }

    /// Reads a file written by ``json()``.
    /// - Throws: ``FlowSiteError`` naming `source` when the text is not a coverage file.
    package init(json data: Data, source: String) throws {
        do {
            self = try JSONDecoder().decode(FlowCoverageFile.self, from: data)
        } catch DecodingError.dataCorrupted(let context) where context.codingPath.count > 1 {
            // A transition's unknown presentation: its test's name, then what it took.
            let test = context.codingPath[1].stringValue
            throw FlowSiteError(.flowCoverage(path: source, message: "\(test) \(context.debugDescription)"))
        } catch {
            throw FlowSiteError(.flowCoverage(path: source, message: "it is not a flow coverage file (\(error))"))
        }
        guard format == 1 else {
            throw FlowSiteError(
                .flowCoverage(
                    path: source, message: "its format is \(format), and this FlowSite reads format 1; update FlowSite")
            )
        }
    }

    /// Stable text: sorted keys, the same bytes on every machine.
    package func json() -> String { FlowJSON.encode(self) }

    var coverage: FlowGraph.Coverage { FlowGraph.Coverage(tests.values.joined()) }

    /// Each test's transitions that `graph` no longer has, tests in name order: what the trait reports as stale.
    package func stale(in graph: FlowGraph) -> [(test: String, transition: Transition)] {
        let current = Set(graph.transitions.map { Transition(from: $0.from, to: $0.to, presentation: $0.presentation) })
        return tests.sorted { $0.key < $1.key }.flatMap { test, taken in
            taken.filter { !current.contains($0) }.map { (test, $0) }
        }
    }

    /// The file itself, or the `.json` files in the folder and its subfolders, in path order.
    /// - Throws: ``FlowSiteError`` when nothing is there.
    static func files(at url: URL) throws -> [URL] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) else {
            throw FlowSiteError(.flowCoverage(path: url.path, message: "there is no such file or folder"))
        }
        guard isFolder.boolValue else { return [url] }
        guard let paths = FileManager.default.subpaths(atPath: url.path) else {
            throw FlowSiteError(.flowCoverage(path: url.path, message: "the folder can't be listed"))
        }
        return paths.filter { $0.hasSuffix(".json") }.sorted().map { url.appendingPathComponent($0) }
    }
}
