@_spi(Engine) import FlowSite
import StarWarsApp
import SWAPI
import Synchronization

/// What `serve --watch` keeps between rebuilds: the last build's memory of its pages and the
/// catalog they read, so the next build knows which inputs an edit changed.
public final class EditSession: Sendable {
    let memory = BuildMemory<AppRoute>()
    /// The last built catalog, the one being built, and the kinds read afresh since the last
    /// build (`nil`: all of them).
    private let catalogs = Mutex<(built: Catalog?, building: Catalog?, kinds: Set<ResourceKind>?)>((nil, nil, []))
    private let data = Mutex<(snapshot: SnapshotDirectory.Loaded?, changed: Set<String>)>((nil, []))

    public init() {}

    /// The last load of a snapshot folder, whose unchanged files the next load keeps.
    var snapshot: SnapshotDirectory.Loaded? { data.withLock { $0.snapshot } }

    /// Keeps `loaded` for the next load, and returns the kinds read afresh since the last
    /// successful build: a load whose build then failed (or never began) counts too.
    func loaded(_ loaded: SnapshotDirectory.Loaded) -> Set<ResourceKind>? {
        data.withLock { $0.snapshot = loaded }
        return catalogs.withLock { catalogs in
            if let earlier = catalogs.kinds { catalogs.kinds = earlier.union(loaded.decoded) }
            return catalogs.kinds
        }
    }

    /// The paths the watcher saw change before this rebuild: read afresh whatever their stamps.
    public var changedPaths: Set<String> {
        get { data.withLock { $0.changed } }
        set { data.withLock { $0.changed = newValue } }
    }

    /// The inputs that differ between the last built catalog and `catalog` (`nil` before the
    /// first build), noting `catalog` as the one being built. `kinds`: the kinds that may
    /// differ (the others were read from the same files), or `nil` for all.
    func changes(to catalog: Catalog, kinds: Set<ResourceKind>? = nil) -> Set<InputKey>? {
        catalogs.withLock { catalogs in
            catalogs.building = catalog
            if kinds == nil { catalogs.kinds = nil }
            return catalogs.built.map { catalog.changedInputs(since: $0, kinds: catalogs.kinds) }
        }
    }

    /// The build succeeded: its catalog is what the memory now describes.
    func commit() {
        catalogs.withLock { $0 = ($0.building, nil, []) }
    }
}
