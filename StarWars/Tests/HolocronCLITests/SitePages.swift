import SWAPI
import StarWarsApp

/// How many pages a site has, worked out from its data rather than written down.
enum SitePages {
    /// The site of the embedded data's (-1 if the data can't be read, so every count fails).
    static let embedded: Int = (try? EmbeddedSnapshot.load()).map(count(of:)) ?? -1

    /// The site of `archive`'s: each resource's page, each kind's list pages (an empty kind
    /// still has its first), Home, Search and About, and a dialog per record that a relation
    /// names and the archive lacks.
    static func count(of archive: SwapiArchive) -> Int {
        let resources = ResourceKind.allCases.reduce(0) { total, kind in
            let count = archive.count(of: kind)
            return total + count + max(1, (count + listPageSize - 1) / listPageSize)
        }
        let missing = Set(
            archive.danglingReferences.compactMap { reference -> String? in
                guard case .notInArchive = reference.problem else { return nil }
                return "\(reference.to)/\(reference.link.id)"
            })
        return resources + 3 + missing.count
    }
}
