// A site executable's `main.swift` imports FlowSiteCommandLine alone and has FlowSite's types:
// `SiteBuilder.runCommandLine(coordinator:)` is called on one.
@_exported import FlowSite
