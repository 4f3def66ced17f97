import FlowSiteUtilities
import Foundation

/// Checks that the app showed exactly the expected route once, and how; armed before each link. On failure the
/// walker follows again with a ``ShowList``. Plain fields behind a non-generic lock: no generic metadata lookup
/// per link.
final class WalkNavigator<R: Route>: Navigator, @unchecked Sendable {
    private let lock = Locked(())
    private var expected: R
    private var count = 0
    private var matched = false
    private var shownPresentation = Presentation.push
    private var shownLocation: CodeLocation?

    init(expecting route: R) { expected = route }

    func expect(_ route: R) {
        lock.withLock { _ in
            expected = route
            count = 0
            matched = false
        }
    }

    func show(_ route: R, as presentation: Presentation, at location: CodeLocation) {
        lock.withLock { _ in
            count += 1
            if count == 1 {
                matched = route == expected
                shownPresentation = presentation
                shownLocation = location
            }
        }
    }

    /// How and where the expected route was shown, when the app showed exactly that, once.
    var shown: ShownLink? {
        lock.withLock { _ in
            count == 1 && matched ? ShownLink(presentation: shownPresentation, location: shownLocation!) : nil
        }
    }
}

/// A struct, not a tuple: in generic code a tuple's type is looked up at run time on every link.
struct ShownLink: Sendable {
    let presentation: Presentation
    let location: CodeLocation
}

struct UnhandledLink: Sendable, Equatable {
    let label: String
    let target: String
    let shown: [String]
}

/// Lists everything the app shows, for an error message.
final class ShowList<R: Route>: Navigator, Sendable {
    private let list = Locked<[String]>([])

    func show(_ route: R, as presentation: Presentation, at location: CodeLocation) {
        list.withLock { $0.append("\(route) (\(presentation))") }
    }

    var shown: [String] { list.withLock { $0 } }
}
