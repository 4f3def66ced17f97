import FlowSite
import SWAPI

/// One page of a resource list, as its view model presents it.
public struct ListContent: Sendable, Hashable {
    public var kind: ResourceKind
    public var page: Int
    public var pageCount: Int
    public var total: Int
    public var rows: [Row]

    /// A list row: a link and a one-line summary.
    public struct Row: Sendable, Hashable {
        public var title: String
        public var route: AppRoute
        public var summary: String

        public init(title: String, route: AppRoute, summary: String) {
            self.title = title
            self.route = route
            self.summary = summary
        }
    }

    public init(kind: ResourceKind, page: Int, pageCount: Int, total: Int, rows: [Row]) {
        self.kind = kind
        self.page = page
        self.pageCount = pageCount
        self.total = total
        self.rows = rows
    }

    /// The position of the page's first row in the whole list, from 1.
    public var firstPosition: Int { (page - 1) * listPageSize + 1 }
}

/// A resource's detail page, as its view model presents it.
public struct DetailContent: Sendable, Hashable {
    public var kind: ResourceKind
    public var title: String
    /// A short introduction (a film's synopsis).
    public var introduction: String?
    /// Name/value pairs, in reading order.
    public var attributes: [Attribute]
    /// Related resources by relation, in reading order.
    public var relations: [Relation]

    public struct Attribute: Sendable, Hashable {
        public var name: String
        public var value: String

        public init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    public struct Relation: Sendable, Hashable {
        public var title: String
        public var links: [RelatedLink]
        /// What an empty relation says, when "None" would not be true to the data (SWAPI leaves
        /// a character's species empty when it was not recorded, even for humans).
        public var ifEmpty: String?

        public init(_ title: String, _ links: [RelatedLink], ifEmpty: String? = nil) {
            self.title = title
            self.links = links
            self.ifEmpty = ifEmpty
        }
    }

    public init(
        kind: ResourceKind, title: String, introduction: String? = nil, attributes: [Attribute], relations: [Relation]
    ) {
        self.kind = kind
        self.title = title
        self.introduction = introduction
        self.attributes = attributes
        self.relations = relations
    }
}

/// How many rows a list page holds, as on SWAPI.
public let listPageSize = 10
