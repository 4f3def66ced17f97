import FlowSite
import Foundation
import SWAPI

/// Loads one resource's ``DetailContent``: its kind's module finds it in the catalog and says
/// what its page shows.
public struct ResourceDetailViewModel<Module: ResourceModule>: ViewModel {
    public typealias Dependencies = HasCatalogService & HasStrings & Sendable
    let dependencies: any Dependencies
    public let id: Int

    public init(dependencies: any Dependencies, id: Int) {
        self.dependencies = dependencies
        self.id = id
    }

    public var kind: ResourceKind { Module.Resource.kind }
    /// The words the page is written in.
    public var strings: Strings { dependencies.strings }

    public func load() async -> ScreenState<DetailContent> {
        do {
            let catalog = try await dependencies.catalog.catalog()
            guard let resource = Module.find(id, in: catalog) else {
                return .empty(
                    EmptyState(message: strings.localizedString(.detailMissing, about: kind, ["id": "\(id)"])))
            }
            return .loaded(Module.detail(of: resource, in: catalog, strings: strings))
        } catch {
            return .error(strings.localizedString(.detailError, about: kind, ["error": "\(error)"]))
        }
    }
}

/// Renders any resource's detail page: introduction, attributes, then each relation.
public struct ResourceDetailScreen<Module: ResourceModule>: StatefulScreen {
    public typealias R = AppRoute
    public let viewModel: ResourceDetailViewModel<Module>

    public init(viewModel: ResourceDetailViewModel<Module>) { self.viewModel = viewModel }

    public func page(for state: ScreenState<DetailContent>) -> Page<AppRoute> {
        let kind = viewModel.kind
        let strings = viewModel.strings
        var document = MarkdownDocument<AppRoute>()
        switch state {
        case .loading:
            document.paragraph(.text(strings.localizedString(.stateLoading)))
            return Page(title: strings.name(of: kind), document: document)
        case .loaded(let content):
            if let introduction = content.introduction {
                for paragraph in Self.paragraphs(introduction) { document.paragraph(.text(paragraph)) }
            }
            document.section(.attributes) { $0.attributes(content.attributes.map { ($0.name, $0.value) }) }
            for relation in content.relations {
                document.section(.related) { section in
                    section.heading(relation.title)
                    if relation.links.isEmpty {
                        section.paragraph(.text(relation.ifEmpty ?? strings.localizedString(.detailRelationNone)))
                    } else {
                        section.linkList(relation.links) { (label: $0.label, route: $0.route) }
                    }
                }
            }
            return Page(
                title: content.title,
                summary: strings.localizedString(.detailSummary, about: kind, ["title": content.title]),
                document: document
            )
        case .empty(let empty):
            return unavailable(empty.message)
        case .error(let message):
            return unavailable(message)
        }
    }

    /// The page of a record that can't be shown, with the way to its list.
    private func unavailable(_ message: String) -> Page<AppRoute> {
        let kind = viewModel.kind
        let strings = viewModel.strings
        var document = MarkdownDocument<AppRoute>()
        document.section(.notice) { $0.paragraph(.text(message)) }
        document.paragraph(.link(strings.localizedString(.detailLinkList, about: kind), to: .list(kind)))
        return Page(title: strings.localizedString(.detailUnavailable, about: kind), document: document)
    }

    /// Text split into paragraphs at blank lines, as SWAPI's crawls are written (`\r\n`
    /// between lines, a blank line between paragraphs); the lines of a paragraph are joined.
    static func paragraphs(_ text: String) -> [String] {
        text.replacingLineEndings.components(separatedBy: "\n\n")
            .map { $0.split(separator: "\n").map { String($0).trimmedSpaces }.joined(separator: " ") }
            .filter { !$0.isEmpty }
    }
}

extension String {
    /// `\r\n` and `\r` as `\n`.
    var replacingLineEndings: String {
        var out = ""
        for character in self {
            // "\r\n" is a single Character in Swift.
            if character == "\r\n" || character == "\r" { out.append("\n") } else { out.append(character) }
        }
        return out
    }
}
