import Foundation
import Synchronization

/// Where a page stands in the walk: what its layout shows around its content. A page replayed
/// from a previous walk must stand where it stood.
@_spi(Engine) public struct PageContext<R: Route>: Sendable, Hashable {
    @_spi(Engine) public let trail: [Breadcrumb<R>]
    @_spi(Engine) public let presenter: Breadcrumb<R>?
    @_spi(Engine) public let presentation: Presentation
    @_spi(Engine) public let depth: Int
    @_spi(Engine) public let kind: Int32
}

/// What a walk learnt of each page it made or replayed, by route.
@_spi(Engine) public final class WalkMemory<R: Route>: Sendable {
    typealias Outcome = WalkOutcome<R>
    struct Kept: Sendable {
        let context: PageContext<R>
        let outcome: Outcome
    }
    private let pages: Mutex<[R: Kept]>
    /// The routes whose page read each input, made when an edit first asks and kept while no
    /// page's inputs change (taken under `pages`' lock).
    private let readers = Mutex<[InputKey: [R]]?>(nil)

    /// - Parameter capacity: how many pages to make room for (the last walk's count).
    @_spi(Engine) public init(capacity: Int = 0) {
        pages = Mutex(Dictionary(minimumCapacity: capacity))
    }

    func kept(_ route: R) -> Kept? { pages.withLock { $0[route] } }
    func keep(_ route: R, context: PageContext<R>, outcome: Outcome) {
        pages.withLock { pages in
            let before = pages.updateValue(Kept(context: context, outcome: outcome), forKey: route)
            readers.withLock { readers in
                if readers != nil, before?.outcome.inputs != outcome.inputs { readers = nil }
            }
        }
    }
    @_spi(Engine) public var count: Int { pages.withLock { $0.count } }

    /// Forgets every page but those of `routes`.
    func keepOnly(_ routes: Set<R>) {
        pages.withLock { pages in
            pages = pages.filter { routes.contains($0.key) }
            readers.withLock { $0 = nil }
        }
    }

    /// The routes whose page read one of `inputs`, in no particular order.
    func routes(reading inputs: Set<InputKey>) -> [R] {
        pages.withLock { pages in
            readers.withLock { readers in
                if readers == nil {
                    var index: [InputKey: [R]] = [:]
                    for (route, kept) in pages {
                        for input in kept.outcome.inputs { index[input, default: []].append(route) }
                    }
                    readers = index
                }
                var found = Set<R>()
                for input in inputs { found.formUnion(readers?[input] ?? []) }
                return Array(found)
            }
        }
    }
}
