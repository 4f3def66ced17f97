// A test that imports FlowSiteTesting gets `assertSnapshot` and the `Snapshotting` type its
// strategies extend, without naming swift-snapshot-testing in its own package.
@_exported import SnapshotTesting
