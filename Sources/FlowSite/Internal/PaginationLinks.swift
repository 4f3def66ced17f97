/// What a page of a paginated list shows of its ``Page/pagination``: previous and next, the
/// first and last page, and a window of pages around the current one, with gaps between.
///
/// The walker follows exactly these links and the renderer shows exactly these, so the site's
/// pagination links are navigation edges like any other.
struct PaginationLinks<R: Route>: Sendable, Equatable {
    /// One entry of the numbered row.
    enum Item: Sendable, Equatable {
        /// A page; `number` counts from 1.
        case page(NavigationAction<R>, number: Int, isCurrent: Bool)
        /// Pages left out between two shown ones.
        case gap
    }

    /// The page before the current one, if any.
    let previous: NavigationAction<R>?
    /// The page after the current one, if any.
    let next: NavigationAction<R>?
    /// The numbered row, in order.
    let items: [Item]

    /// How many pages either side of the current one are always shown.
    static var window: Int { 2 }

    /// The links of page `current` (from 1) of `count` pages, where `page(n)` leads to page
    /// `n`; `nil` for a list of one page or a current page out of range.
    init?(count: Int, current: Int, page: (Int) -> NavigationAction<R>) {
        guard count > 1, (1...count).contains(current) else { return nil }
        let index = current - 1
        previous = index > 0 ? page(index) : nil
        next = index < count - 1 ? page(index + 2) : nil
        // The first, the last and the window; a gap of a single page shows that page instead,
        // since an ellipsis would take as much room and hide it.
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

    /// The links of the page at `current` among `pages` (every page of the list, in order).
    init?(pages: [NavigationAction<R>], current: R) {
        guard let index = pages.firstIndex(where: { $0.route == current }) else { return nil }
        self.init(count: pages.count, current: index + 1) { pages[$0 - 1] }
    }

    /// The same, for a page's ``Page/pagination``.
    init?(_ pagination: (count: Int, current: Int, page: @Sendable (Int) -> NavigationAction<R>)?) {
        guard let pagination else { return nil }
        self.init(count: pagination.count, current: pagination.current, page: pagination.page)
    }

    /// The links the walker follows: every shown page but the current one.
    var linkedActions: [NavigationAction<R>] {
        items.compactMap { item in
            if case .page(let action, _, false) = item { action } else { nil }
        }
    }
}
