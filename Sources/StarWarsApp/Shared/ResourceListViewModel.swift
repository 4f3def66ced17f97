import FlowSite
import SWAPI

/// One page of a kind's list, 10 rows a page like SWAPI, each row a link and a summary.
///
/// The ordering and the one-line summary come from the kind's module, so this view model is
/// shared by all six lists.
public struct ResourceListViewModel: ViewModel {
    public typealias Dependencies = HasCatalogService & Sendable

    let dependencies: any Dependencies
    public let kind: ResourceKind
    public let page: Int

    public init(dependencies: any Dependencies, kind: ResourceKind, page: Int) {
        self.dependencies = dependencies
        self.kind = kind
        self.page = page
    }

    public func load() async -> ScreenState<ListContent> {
        let catalog: Catalog
        do {
            catalog = try await dependencies.catalog.catalog()
        } catch {
            return .error("The \(kind.plural.lowercased()) could not be loaded: \(error)")
        }
        return Self.state(kind: kind, page: page, catalog: catalog)
    }

    /// The state for `page` of `kind`: a pure function of the catalog.
    public static func state(kind: ResourceKind, page: Int, catalog: Catalog) -> ScreenState<ListContent> {
        let resources = ordered(kind, catalog.archive)
        if resources.isEmpty { return .empty("The archive holds no \(kind.plural.lowercased()).") }
        let pageCount = (resources.count + listPageSize - 1) / listPageSize
        guard (1...pageCount).contains(page) else {
            return .empty("There is no page \(page) of \(kind.plural.lowercased()); the list has \(pageCount) page\(pageCount == 1 ? "" : "s").")
        }
        // Summaries only for the rows on this page.
        let slice = resources[((page - 1) * listPageSize)..<min(resources.count, page * listPageSize)]
        let rows = slice.map { resource in
            ListContent.Row(title: resource.displayName, route: catalog.route(kind, id: resource.id), summary: summary(of: resource, in: catalog))
        }
        return .loaded(ListContent(kind: kind, page: page, pageCount: pageCount, total: resources.count, rows: rows))
    }

    /// How many list pages `kind` has.
    public static func pageCount(of kind: ResourceKind, in archive: SwapiArchive) -> Int {
        max(1, (archive.count(of: kind) + listPageSize - 1) / listPageSize)
    }

    /// The kind's resources in list order: films by episode, the rest by id.
    static func ordered(_ kind: ResourceKind, _ archive: SwapiArchive) -> [any SwapiResource] {
        kind == .films ? FilmsModule.ordered(archive.films) : archive.resources(of: kind)
    }

    /// The one-line summary the kind's module writes for a row.
    static func summary(of resource: any SwapiResource, in catalog: Catalog) -> String {
        switch resource {
        case let person as Person: CharactersModule.summary(of: person, in: catalog)
        case let film as Film: FilmsModule.summary(of: film)
        case let planet as Planet: PlanetsModule.summary(of: planet)
        case let species as Species: SpeciesModule.summary(of: species)
        case let starship as Starship: StarshipsModule.summary(of: starship)
        case let vehicle as Vehicle: VehiclesModule.summary(of: vehicle)
        default: ""
        }
    }
}

/// Renders a list page: rows, then the pager.
public struct ResourceListScreen: StatefulScreen {
    public typealias R = AppRoute
    public let viewModel: ResourceListViewModel

    public init(viewModel: ResourceListViewModel) { self.viewModel = viewModel }

    public func page(for state: ScreenState<ListContent>) -> Page<AppRoute> {
        let kind = viewModel.kind
        var document = MarkdownDocument<AppRoute>()
        var title = kind.plural
        switch state {
        case .loading:
            document.paragraph("Loading…")
        case .loaded(let content):
            if content.pageCount > 1 { title += " — page \(content.page) of \(content.pageCount)" }
            document.paragraph(.text("\(content.total) \(content.total == 1 ? kind.singular.lowercased() : kind.plural.lowercased()) in the archive."))
            document.section(.results) { section in
                section.list(content.rows.map { [.link($0.title, to: $0.route), .text(" — \($0.summary)")] })
            }
            if content.pageCount > 1 { document.section(.pager) { Self.pager(content, into: &$0) } }
        case .empty(let message):
            document.section(.notice) { $0.paragraph(.text(message)) }
            document.paragraph(.link("First page of \(kind.plural.lowercased())", to: .list(kind)))
        case .error(let message):
            document.section(.notice) { $0.paragraph(.text(message)) }
            document.paragraph(.link("Back to the front page", to: .home))
        }
        return Page(title: title, shortTitle: kind.plural, summary: "Every \(kind.singular.lowercased()) in the Star Wars archive.", document: document)
    }

    static func pager(_ content: ListContent, into document: inout MarkdownDocument<AppRoute>) {
        var inlines: [MarkdownDocument<AppRoute>.Inline] = []
        if content.page > 1 {
            inlines += [.link("← Previous", to: .list(content.kind, page: content.page - 1)), " "]
        }
        inlines.append(.text("Page \(content.page) of \(content.pageCount)"))
        if content.page < content.pageCount {
            inlines += [" ", .link("Next →", to: .list(content.kind, page: content.page + 1))]
        }
        document.paragraph(inlines)
    }
}
