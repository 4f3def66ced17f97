import FlowSite
import SWAPI

/// One page of a kind's list, 10 rows a page like SWAPI, each row a link and a summary.
///
/// The rows and their one-line summaries come from the kind's module (its
/// ``ResourceModule/summary(of:in:strings:)``), so this view model is shared by all six lists.
public struct ResourceListViewModel<Module: ResourceModule>: ViewModel {
    public typealias Dependencies = HasCatalogService & HasStrings & Sendable

    let dependencies: any Dependencies
    /// The page shown, from 1.
    public let page: Int

    public init(dependencies: any Dependencies, page: Int) {
        self.dependencies = dependencies
        self.page = page
    }

    /// The kind listed.
    public var kind: ResourceKind { Module.Resource.kind }
    /// The words the list is written in.
    public var strings: Strings { dependencies.strings }

    /// Loads the catalog and the page's rows, or says why it can't.
    public func load() async -> ScreenState<ListContent> {
        let catalog: Catalog
        do {
            catalog = try await dependencies.catalog.catalog()
        } catch {
            return .error(strings.localizedString(.listError, about: kind, ["error": "\(error)"]))
        }
        return Self.state(page: page, catalog: catalog, strings: strings)
    }

    /// The state for list page `page`: a pure function of the catalog and the words.
    public static func state(page: Int, catalog: Catalog, strings: Strings) -> ScreenState<ListContent> {
        let kind = Module.Resource.kind
        let total = catalog.listCount(of: kind)
        if total == 0 { return .empty(EmptyState(message: strings.localizedString(.listEmpty, about: kind))) }
        let pageCount = (total + listPageSize - 1) / listPageSize
        guard (1...pageCount).contains(page) else {
            return .empty(
                EmptyState(
                    message: strings.localizedString(
                        .listNoSuchPage, count: pageCount, about: kind, ["page": "\(page)"])))
        }
        // Only the rows on this page are read and summarised.
        let ids = catalog.listedIDs(kind, ((page - 1) * listPageSize)..<min(total, page * listPageSize))
        let rows = ids.compactMap { Module.find($0, in: catalog) }.map { row($0, in: catalog, strings: strings) }
        return .loaded(ListContent(kind: kind, page: page, pageCount: pageCount, total: total, rows: rows))
    }

    /// A row of the list: the resource's name as its page shows it, leading to that page, and
    /// the one-line summary its module writes.
    static func row(_ resource: Module.Resource, in catalog: Catalog, strings: Strings) -> ListContent.Row {
        ListContent.Row(
            title: Format(strings).name(resource.displayName, of: Module.Resource.kind),
            route: catalog.route(Module.Resource.kind, id: resource.id),
            summary: Module.summary(of: resource, in: catalog, strings: strings))
    }
}

/// Renders a list page: rows, then the pagination.
public struct ResourceListScreen<Module: ResourceModule>: StatefulScreen {
    public typealias R = AppRoute
    public let viewModel: ResourceListViewModel<Module>

    public init(viewModel: ResourceListViewModel<Module>) { self.viewModel = viewModel }

    /// The page for `state`. A list of more than one page says which page it is in its title
    /// and which rows it holds in its description, and has the pagination; a later page's
    /// breadcrumb is "Page 2", under the first page's.
    public func page(for state: ScreenState<ListContent>) -> Page<AppRoute> {
        let kind = viewModel.kind
        let strings = viewModel.strings
        var document = MarkdownDocument<AppRoute>()
        var title = strings.name(of: kind, plural: true)
        var shortTitle = title
        var summary = strings.localizedString(.listSummary, about: kind)
        var pagination: (count: Int, current: Int, page: @Sendable (Int) -> NavigationAction<AppRoute>)?
        switch state {
        case .loading:
            document.paragraph(.text(strings.localizedString(.stateLoading)))
        case .loaded(let content):
            if content.pageCount > 1 {
                title = strings.localizedString(
                    .listTitlePaged, about: kind, ["page": "\(content.page)", "count": "\(content.pageCount)"])
                if content.page > 1 {
                    shortTitle = strings.localizedString(.listShortTitlePaged, ["page": "\(content.page)"])
                }
                if let first = content.rows.first, let last = content.rows.last {
                    summary = strings.localizedString(
                        .listSummaryPaged, about: kind,
                        [
                            "first": strings.formatted.integer(content.firstPosition),
                            "last": strings.formatted.integer(content.firstPosition + content.rows.count - 1),
                            "total": strings.formatted.integer(content.total), "from": first.title, "to": last.title
                        ])
                }
                pagination = (
                    content.pageCount, content.page,
                    { number in
                        NavigationAction(
                            strings.localizedString(.listPageNumber, ["page": "\(number)"]),
                            to: .list(kind, page: number))
                    }
                )
            }
            document.paragraph(.text(strings.localizedString(.listCount, count: content.total, about: kind)))
            document.section(.results) { section in
                section.list(content.rows.map { [.link($0.title, to: $0.route), .text(" — \($0.summary)")] })
            }
        case .empty(let empty):
            document.section(.notice) { $0.paragraph(.text(empty.message)) }
            document.paragraph(.link(strings.localizedString(.listLinkFirstPage, about: kind), to: .list(kind)))
        case .error(let message):
            document.section(.notice) { $0.paragraph(.text(message)) }
            document.paragraph(.link(strings.localizedString(.listLinkHome), to: .home))
        }
        return Page(title: title, shortTitle: shortTitle, summary: summary, document: document, pagination: pagination)
    }
}
