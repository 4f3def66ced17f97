import Dispatch
import FlowSite
import SWAPI

/// The inputs a Star Wars page can read (see ``InputKey``): a record, a resource's slug, a
/// kind's list order and count, a resource's name, or everything at once.
///
/// Each input but the last is one table per kind of resource. A table's number follows from
/// the input's place among these cases and the kind's among `ResourceKind.allCases`, so no
/// number is written down, and a new input or kind numbers its tables by being declared.
enum CatalogInput: UInt16, CaseIterable {
    /// The records of each kind.
    case record
    /// Each resource's slug, which depends on the names of others.
    case slug
    /// Each kind's list order, read whole, which gives its count too.
    case order
    /// Each resource's name (or title) as the data has it, which is all a link to it shows: a
    /// page listing a film's characters reads their names, not their records, so a character's
    /// mass edited leaves the film's page as it is.
    case name

    /// The number of this input's table for `kind`.
    func table(_ kind: ResourceKind) -> UInt16 {
        rawValue * UInt16(ResourceKind.allCases.count) + UInt16(kind.position)
    }

    /// The number of the table after every kind's: the archive read as one value.
    static let everythingTable = UInt16(allCases.count * ResourceKind.allCases.count)
}

extension InputKey {
    static func record(_ kind: ResourceKind, id: Int) -> InputKey {
        InputKey(table: CatalogInput.record.table(kind), id: id)
    }
    static func slug(_ kind: ResourceKind, id: Int) -> InputKey {
        InputKey(table: CatalogInput.slug.table(kind), id: id)
    }
    static func order(_ kind: ResourceKind) -> InputKey {
        InputKey(table: CatalogInput.order.table(kind), id: InputKey.whole)
    }
    static func name(_ kind: ResourceKind, id: Int) -> InputKey {
        InputKey(table: CatalogInput.name.table(kind), id: id)
    }
    static let everything = InputKey(table: CatalogInput.everythingTable, id: InputKey.whole)
}

extension Catalog {
    /// A fingerprint of every input a page can read: each record (all its fields, as a
    /// snapshot file writes them), each slug, each kind's list order, and everything at once.
    /// `holocron build` keeps them with the site (and `serve --watch` in memory), and the next
    /// build's changed inputs are the keys whose fingerprints differ.
    ///
    /// `resources`: each record's fingerprint by kind and id when the loader already has one
    /// (``SnapshotDirectory/Loaded/resourceFingerprints``, from the record's text: much
    /// cheaper than encoding each record again); otherwise each record is fingerprinted here.
    package func inputFingerprints(
        resources: [ResourceKind: (ids: [Int], fingerprints: [UInt64])]? = nil
    ) -> InputFingerprints {
        let data = archiveWithoutRecording
        let kinds = ResourceKind.allCases
        // Per kind: its records' and its slugs' fingerprints, each in id order, and its order's.
        typealias Pairs = [(key: InputKey, value: UInt64)]
        let made = Locked(
            [(records: Pairs, slugs: Pairs, order: UInt64, names: Pairs)](
                repeating: ([], [], 0, []), count: kinds.count))
        let known = resources
        DispatchQueue.concurrentPerform(iterations: kinds.count) { position in
            let kind = kinds[position]
            func fingerprints<R: SwapiResource>(
                _ resources: [R]
            ) -> (records: Pairs, slugs: Pairs, order: UInt64, names: Pairs) {
                var records: Pairs = []
                var slugs: Pairs = []
                var names: Pairs = []
                records.reserveCapacity(resources.count)
                slugs.reserveCapacity(resources.count)
                names.reserveCapacity(resources.count)
                // The loader's fingerprints, by position when the file had the archive's order.
                let given = known?[kind]
                // By position, reading the id alone: iterating the resources would copy each whole one.
                let aligned =
                    given.map { given in
                        given.ids.count == resources.count
                            && resources.indices.allSatisfy { given.ids[$0] == resources[$0].id }
                    } ?? false
                let byID = given.flatMap { given in
                    aligned ? nil : Dictionary(zip(given.ids, given.fingerprints), uniquingKeysWith: { $1 })
                }
                for position in resources.indices {
                    let id = resources[position].id
                    let fingerprint =
                        aligned
                        ? given!.fingerprints[position]
                        : byID?[id]
                            ?? InputFingerprints.fingerprint(
                                of: resources[position], userInfo: [.swapiCompactLinks: true])
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
                return (records, slugs, InputFingerprints.fingerprint(of: listIDs(kind)), names)
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
