import FlowSite

/// Every screen of the example app.
public enum ExampleRoute: Route, CaseIterable {
    case initial
    case detail
    case about

    public var path: RoutePath {
        switch self {
        case .initial: .root
        case .detail: ["detail"]
        case .about: ["about"]
        }
    }
}
