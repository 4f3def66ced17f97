// A test that imports FlowSiteTesting has FlowSite's types (routes, pages, `SiteBuilder`) with
// no second import: every strategy here snapshots one of them.
@_exported import FlowSite
// A test that imports FlowSiteTesting gets `assertSnapshot` and the `Snapshotting` type its
// strategies extend, without naming swift-snapshot-testing in its own package.
@_exported import SnapshotTesting
