import FlowSite
import SWAPI

/// One page of a kind's list, 10 rows a page like SWAPI, each row a link and a summary.
///
/// The ordering and the one-line summary come from the kind's module, so this view model is
/// shared by all six lists.
public struct ResourceListViewModel: ViewModel {
    public typealias Dependencies = HasCatalogService & HasStrings & Sendable

    let dependencies: any Dependencies
    public let kind: ResourceKind
    public let page: Int

    public init(dependencies: any Dependencies, kind: ResourceKind, page: Int) {
        self.dependencies = dependencies
        self.kind = kind
        self.page = page
    }

    /// The words the list is written in.
    public var strings: Strings { dependencies.strings }

    public func load() async -> ScreenState<ListContent> {
        let catalog: Catalog
        do {
            catalog = try await dependencies.catalog.catalog()
        } catch {
            return .error(strings.localizedString(.listError, about: kind, ["error": "\(error)"]))
        }
        return Self.state(kind: kind, page: page, catalog: catalog, strings: strings)
    }

    /// The state for `page` of `kind`: a pure function of the catalog and the words.
    public static func state(
        kind: ResourceKind, page: Int, catalog: Catalog, strings: Strings
    ) -> ScreenState<ListContent> {
        let total = catalog.listCount(of: kind)
        if total == 0 { return .empty(strings.localizedString(.listEmpty, about: kind)) }
        let pageCount = (total + listPageSize - 1) / listPageSize
        guard (1...pageCount).contains(page) else {
            return .empty(strings.localizedString(.listNoSuchPage, count: pageCount, about: kind, ["page": "\(page)"]))
        }
        // Only the rows on this page are read and summarised.
        let rows = catalog.listRows(kind, ((page - 1) * listPageSize)..<min(total, page * listPageSize)).map {
            resource in
            ListContent.Row(
                title: Format(strings).name(resource.displayName, of: kind),
                route: catalog.route(kind, id: resource.id),
                summary: summary(of: resource, in: catalog, strings: strings))
        }
        return .loaded(ListContent(kind: kind, page: page, pageCount: pageCount, total: total, rows: rows))
    }

    /// How many list pages `kind` has.
    public static func pageCount(of kind: ResourceKind, in archive: SwapiArchive) -> Int {
        max(1, (archive.count(of: kind) + listPageSize - 1) / listPageSize)
    }

    /// The one-line summary the kind's module writes for a row.
    static func summary(of resource: any SwapiResource, in catalog: Catalog, strings: Strings) -> String {
        switch resource {
        case let person as Person: CharactersModule.summary(of: person, in: catalog, strings: strings)
        case let film as Film: FilmsModule.summary(of: film, strings: strings)
        case let planet as Planet: PlanetsModule.summary(of: planet, strings: strings)
        case let species as Species: SpeciesModule.summary(of: species, strings: strings)
        case let starship as Starship: StarshipsModule.summary(of: starship, strings: strings)
        case let vehicle as Vehicle: VehiclesModule.summary(of: vehicle, strings: strings)
        default: ""
        }
    }
}

/// Renders a list page: rows, then the pagination.
public struct ResourceListScreen: StatefulScreen {
    public typealias R = AppRoute
    public let viewModel: ResourceListViewModel

    public init(viewModel: ResourceListViewModel) { self.viewModel = viewModel }

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
        case .empty(let message):
            document.section(.notice) { $0.paragraph(.text(message)) }
            document.paragraph(.link(strings.localizedString(.listLinkFirstPage, about: kind), to: .list(kind)))
        case .error(let message):
            document.section(.notice) { $0.paragraph(.text(message)) }
            document.paragraph(.link(strings.localizedString(.listLinkHome), to: .home))
        }
        return Page(title: title, shortTitle: shortTitle, summary: summary, document: document, pagination: pagination)
    }
}
