// An app's `Options` and verbs are swift-argument-parser types; it needs only `import FlowSiteCommandLine`.
@_exported import ArgumentParser
// A site executable's `main.swift` imports this module alone and calls `SiteBuilder.runCommandLine(coordinator:)`.
@_exported import FlowSite
