/// A paginated page's links: previous, next, first, last and a window around the current page, with gaps. The
/// walker follows exactly what the renderer shows, so pagination links are edges like any other.
struct PaginationLinks<R: Route>: Sendable, Equatable {
    enum Item: Sendable, Equatable {
        /// `number` counts from 1.
        case page(NavigationAction<R>, number: Int, isCurrent: Bool)
        case gap
    }

    let previous: NavigationAction<R>?
    let next: NavigationAction<R>?
    /// The numbered row.
    let items: [Item]

    /// Pages either side of the current one always shown.
    static var window: Int { 2 }

    /// `current` counts from 1; `nil` for a list of one page or a current page out of range.
    init?(count: Int, current: Int, page: (Int) -> NavigationAction<R>) {
        guard count > 1, (1...count).contains(current) else { return nil }
        let index = current - 1
        previous = index > 0 ? page(index) : nil
        next = index < count - 1 ? page(index + 2) : nil
        // A gap of a single page shows that page: an ellipsis would take as much room and hide it.
        var shown = Set([0, count - 1])
        for offset in -Self.window...Self.window where (0..<count).contains(index + offset) {
            shown.insert(index + offset)
        }
        let sorted = shown.sorted()
        for (a, b) in zip(sorted, sorted.dropFirst()) where b - a == 2 { shown.insert(a + 1) }
        var items: [Item] = []
        var last: Int?
        for position in shown.sorted() {
            if let last, position > last + 1 { items.append(.gap) }
            items.append(.page(page(position + 1), number: position + 1, isCurrent: position == index))
            last = position
        }
        self.items = items
    }

    init?(pages: [NavigationAction<R>], current: R) {
        guard let index = pages.firstIndex(where: { $0.route == current }) else { return nil }
        self.init(count: pages.count, current: index + 1) { pages[$0 - 1] }
    }

    init?(_ pagination: (count: Int, current: Int, page: @Sendable (Int) -> NavigationAction<R>)?) {
        guard let pagination else { return nil }
        self.init(count: pagination.count, current: pagination.current, page: pagination.page)
    }

    /// Every shown page but the current one.
    var linkedActions: [NavigationAction<R>] {
        items.compactMap { item in
            if case .page(let action, _, false) = item { action } else { nil }
        }
    }
}
