// A `SiteApp`'s `Options` are swift-argument-parser's `ParsableArguments` with `@Option` and
// `@Flag`, and an app's own verbs are its `ParsableCommand`s: they are part of this module's
// API, so an app writes them with `import FlowSiteCommandLine` alone and never names the parser
// in its own package.
@_exported import ArgumentParser
// A site executable's `main.swift` imports FlowSiteCommandLine alone and has FlowSite's types:
// `SiteBuilder.runCommandLine(coordinator:)` is called on one.
@_exported import FlowSite
