import SWAPI

@testable import FlowSite
@testable import StarWarsApp

extension Catalog {
    /// The tests' oracle for ``inputFingerprints(resources:)``, found another way, with both
    /// catalogs at hand: the keys whose values differ between `old` and this catalog: records changed, added or
    /// removed, slugs that changed, list orders that changed, and (when anything changed)
    /// ``InputKey/everything``.
    ///
    /// With `kinds`, only those kinds' records are compared: the caller knows the others were
    /// decoded from the very same files. (When the data's API roots changed, which decide
    /// which relations every kind keeps, all kinds are compared anyway.)
    func changedInputs(since old: Catalog, kinds: Set<ResourceKind>? = nil) -> Set<InputKey> {
        var changed: Set<InputKey> = []
        func compare<R: SwapiResource & Equatable>(_ kind: ResourceKind, _ new: [R], _ previous: [R]) {
            var before: [Int: R] = [:]
            for resource in previous { before[resource.id] = resource }
            var ids = Set(before.keys)
            for resource in new {
                ids.remove(resource.id)
                guard let old = before[resource.id] else {
                    changed.insert(.record(kind, id: resource.id))
                    changed.insert(.name(kind, id: resource.id))
                    continue
                }
                if old != resource {
                    changed.insert(.record(kind, id: resource.id))
                    if old.displayName != resource.displayName { changed.insert(.name(kind, id: resource.id)) }
                }
            }
            for id in ids {
                changed.insert(.record(kind, id: id))
                changed.insert(.name(kind, id: id))
            }
            for id in Set(new.map(\.id)).union(previous.map(\.id))
            where slug(of: kind, id: id) != old.slug(of: kind, id: id) {
                changed.insert(.slug(kind, id: id))
            }
            if listIDs(kind) != old.listIDs(kind) { changed.insert(.order(kind)) }
        }
        let (new, previous) = (archiveWithoutRecording, old.archiveWithoutRecording)
        let compared =
            new.apiRoots == previous.apiRoots ? kinds ?? Set(ResourceKind.allCases) : Set(ResourceKind.allCases)
        if compared.contains(.people) { compare(.people, new.people, previous.people) }
        if compared.contains(.films) { compare(.films, new.films, previous.films) }
        if compared.contains(.planets) { compare(.planets, new.planets, previous.planets) }
        if compared.contains(.species) { compare(.species, new.species, previous.species) }
        if compared.contains(.starships) { compare(.starships, new.starships, previous.starships) }
        if compared.contains(.vehicles) { compare(.vehicles, new.vehicles, previous.vehicles) }
        if !changed.isEmpty || new.apiRoots != previous.apiRoots { changed.insert(.everything) }
        return changed
    }
}
