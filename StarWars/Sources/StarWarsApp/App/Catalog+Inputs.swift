import Dispatch
@_spi(Engine) import FlowSite
import SWAPI
import Synchronization

/// The inputs a Star Wars page can read (see ``InputKey``): a record, a resource's slug, a
/// kind's list order and count, or everything at once.
extension InputKey {
    /// Tables 0–5: the records of each kind, by `ResourceKind.position`.
    static func record(_ kind: ResourceKind, id: Int) -> InputKey { InputKey(table: UInt16(kind.position), id: id) }
    /// Tables 10–15: each resource's slug, which depends on the names of others.
    static func slug(_ kind: ResourceKind, id: Int) -> InputKey { InputKey(table: 10 + UInt16(kind.position), id: id) }
    /// Tables 20–25, whole: each kind's list order, which gives its count too.
    static func order(_ kind: ResourceKind) -> InputKey { InputKey(table: 20 + UInt16(kind.position), id: InputKey.whole) }
    /// Tables 30–35: each resource's name (or title) as the data has it, which is all a link
    /// to it shows: a page listing a film's characters reads their names, not their records,
    /// so a character's mass edited leaves the film's page as it is.
    static func name(_ kind: ResourceKind, id: Int) -> InputKey { InputKey(table: 30 + UInt16(kind.position), id: id) }
    /// Table 99, whole: the archive read as one value.
    static let everything = InputKey(table: 99, id: InputKey.whole)
}

extension Catalog {
    /// The keys whose values differ between `old` and this catalog: records changed, added or
    /// removed, slugs that changed, list orders that changed, and (when anything changed)
    /// ``InputKey/everything``.
    ///
    /// With `kinds`, only those kinds' records are compared: the caller knows the others were
    /// decoded from the very same files. (When the data's API roots changed, which decide
    /// which relations every kind keeps, all kinds are compared anyway.)
    public func changedInputs(since old: Catalog, kinds: Set<ResourceKind>? = nil) -> Set<InputKey> {
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
            for id in Set(new.map(\.id)).union(previous.map(\.id)) where slug(of: kind, id: id) != old.slug(of: kind, id: id) {
                changed.insert(.slug(kind, id: id))
            }
            if listIDs(kind) != old.listIDs(kind) { changed.insert(.order(kind)) }
        }
        let (new, previous) = (archiveWithoutRecording, old.archiveWithoutRecording)
        let compared = new.apiRoots == previous.apiRoots ? kinds ?? Set(ResourceKind.allCases) : Set(ResourceKind.allCases)
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

extension Catalog {
    /// A fingerprint of every input a page can read: each record (all its fields, as a
    /// snapshot file writes them), each slug, each kind's list order, and everything at once.
    /// `holocron build` keeps them with the site, and the next build's changed inputs are the
    /// keys whose fingerprints differ: the same keys ``changedInputs(since:kinds:)`` finds
    /// with both catalogs at hand.
    ///
    /// `resources`: each record's fingerprint by kind and id when the loader already has one
    /// (``SnapshotDirectory/Loaded/resourceFingerprints``, from the record's text: much
    /// cheaper than encoding each record again); otherwise each record is fingerprinted here.
    package func inputFingerprints(resources: [ResourceKind: (ids: [Int], fingerprints: [UInt64])]? = nil) -> InputFingerprints {
        let data = archiveWithoutRecording
        let kinds = ResourceKind.allCases
        // Per kind: its records' and its slugs' fingerprints, each in id order, and its order's.
        typealias Pairs = [(key: InputKey, value: UInt64)]
        let made = Mutex([(records: Pairs, slugs: Pairs, order: UInt64, names: Pairs)](repeating: ([], [], 0, []), count: kinds.count))
        let known = resources
        DispatchQueue.concurrentPerform(iterations: kinds.count) { position in
            let kind = kinds[position]
            func fingerprints<R: SwapiResource>(_ resources: [R]) -> (records: Pairs, slugs: Pairs, order: UInt64, names: Pairs) {
                var records: Pairs = [], slugs: Pairs = [], names: Pairs = []
                records.reserveCapacity(resources.count)
                slugs.reserveCapacity(resources.count)
                names.reserveCapacity(resources.count)
                // The loader's fingerprints, by position when the file had the archive's order.
                let given = known?[kind]
                // By position, reading the id alone: iterating the resources copied each whole one.
                let aligned = given.map { given in given.ids.count == resources.count && resources.indices.allSatisfy { given.ids[$0] == resources[$0].id } } ?? false
                let byID = given.flatMap { given in aligned ? nil : Dictionary(zip(given.ids, given.fingerprints), uniquingKeysWith: { $1 }) }
                for position in resources.indices {
                    let id = resources[position].id
                    let fingerprint = aligned ? given!.fingerprints[position]
                        : byID?[id] ?? Fingerprint.of(resources[position], userInfo: [.swapiCompactLinks: true])
                    records.append((.record(kind, id: id), fingerprint))
                    if let slug = slug(of: kind, id: id) {
                        var hash = StableHash()
                        hash.combine(slug.rawValue)
                        slugs.append((.slug(kind, id: id), hash.low))
                    }
                    var name = StableHash()
                    name.combine(resources[position].displayName)
                    names.append((.name(kind, id: id), name.low))
                }
                return (records, slugs, Fingerprint.of(listIDs(kind)), names)
            }
            let result: (records: Pairs, slugs: Pairs, order: UInt64, names: Pairs)
            switch kind {
            case .people: result = fingerprints(data.people)
            case .films: result = fingerprints(data.films)
            case .planets: result = fingerprints(data.planets)
            case .species: result = fingerprints(data.species)
            case .starships: result = fingerprints(data.starships)
            case .vehicles: result = fingerprints(data.vehicles)
            }
            made.withLock { $0[position] = result }
        }
        let parts = made.withLock { $0 }
        // In key order (records, slugs, orders by table, names, then everything), so nothing is
        // sorted.
        var pairs: Pairs = []
        pairs.reserveCapacity(parts.reduce(8) { $0 + $1.records.count + $1.slugs.count + $1.names.count })
        for part in parts { pairs += part.records }
        for part in parts { pairs += part.slugs }
        for (position, part) in parts.enumerated() { pairs.append((.order(kinds[position]), part.order)) }
        for part in parts { pairs += part.names }
        // Everything: every other fingerprint, and the API roots, which decide which relations
        // every kind keeps.
        var everything = StableHash()
        for root in data.apiRoots { everything.combine(root) }
        for pair in pairs {
            everything.combine(Int(bitPattern: UInt(pair.key.rawValue)))
            everything.combine(Int(bitPattern: UInt(pair.value)))
        }
        pairs.append((.everything, everything.low))
        return InputFingerprints(pairs)
    }
}
