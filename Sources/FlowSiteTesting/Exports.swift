// Tests importing FlowSiteTesting get FlowSite's types, which the strategies snapshot, with no second import.
@_exported import FlowSite
// Tests get `assertSnapshot` and `Snapshotting` without naming swift-snapshot-testing in their own package.
@_exported import SnapshotTesting
