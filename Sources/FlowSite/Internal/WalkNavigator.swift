import Foundation

/// The walker's navigator: it checks that the app showed one route, the one a followed action
/// leads to, and how. A page's task uses one for all its links, arming it before each.
///
/// It holds no list of what was shown: when the check fails, the walker follows the action
/// again with a ``ShowList`` for the error message. Plain fields behind a lock of no generic
/// type keep the runtime from looking up generic type metadata on each of a build's links.
final class WalkNavigator<R: Route>: Navigator, @unchecked Sendable {
    private let lock = Locked(())
    private var expected: R
    private var count = 0
    private var matched = false
    private var shownPresentation = Presentation.push
    private var shownLocation: CodeLocation?

    init(expecting route: R) { expected = route }

    /// Forgets what was shown, and expects `route`.
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

    /// How the expected route was shown and by which code, when the app showed exactly that,
    /// once.
    var shown: ShownLink? {
        lock.withLock { _ in
            count == 1 && matched ? ShownLink(presentation: shownPresentation, location: shownLocation!) : nil
        }
    }
}

/// How the app showed a followed link, and the code that did. (A struct, not a tuple: the
/// walker's code is generic, and a tuple's type would be looked up at run time on every link.)
struct ShownLink: Sendable {
    let presentation: Presentation
    let location: CodeLocation
}

/// A link whose route the app's navigation did not show, as flow lint reports it.
struct UnhandledLink: Sendable, Equatable {
    let label: String
    let target: String
    let shown: [String]
}

/// A navigator that lists everything the app shows, for an error message.
final class ShowList<R: Route>: Navigator, Sendable {
    private let list = Locked<[String]>([])

    func show(_ route: R, as presentation: Presentation, at location: CodeLocation) {
        list.withLock { $0.append("\(route) (\(presentation))") }
    }

    var shown: [String] { list.withLock { $0 } }
}
