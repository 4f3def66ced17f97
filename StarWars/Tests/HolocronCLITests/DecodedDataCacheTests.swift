import Foundation
import SWAPI
import StarWarsTestSupport
import Testing

/// `holocron build` keeps each data file's resources as decoded beside the site
/// (`.NAME.spare/data`) and decodes only the files that changed, and of those only the resources
/// whose text changed: through any series of edits, the site is byte for byte the one a build
/// from nothing makes of the same data.
@Suite struct DecodedDataCacheTests {
    let cli = HolocronCLITests()

    typealias Archive = (
        people: [Person], films: [Film], planets: [Planet], species: [Species], starships: [Starship],
        vehicles: [Vehicle]
    )

    /// Writes one kind's file as `SnapshotDirectory.write` writes it, leaving the others alone.
    static func write(_ resources: [some SwapiResource], _ kind: ResourceKind, to data: URL) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        var bytes = try encoder.encode(resources)
        bytes.append(0x0A)
        try bytes.write(to: data.appendingPathComponent(kind.fileName), options: .atomic)
    }

    /// Every file of the site at `folder` but the manifest and the marker (which hold inodes and
    /// times), by path.
    static func files(of folder: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for case let path as String in FileManager.default.enumerator(atPath: folder.path) ?? FileManager.default
            .enumerator(atPath: "/dev/null")!
        {
            var isFolder: ObjCBool = false
            let url = folder.appendingPathComponent(path)
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), !isFolder.boolValue,
                ![".flowsite-manifest", ".flowsite"].contains(path)
            else { continue }
            files[path] = try Data(contentsOf: url)
        }
        return files
    }

    /// The cache is kept only where a build may write: a folder holocron did not make gets
    /// nothing beside it when the build is refused; a site reached through a link keeps its
    /// cache beside the real folder, where its spare generation is.
    @Test func theCacheIsKeptOnlyBesideASiteABuildMayWrite() async throws {
        let folder = try cli.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try SnapshotDirectory.write(SyntheticArchive.make(people: 12), to: folder.appendingPathComponent("data"))
        let foreign = folder.appendingPathComponent("notes")
        try FileManager.default.createDirectory(at: foreign, withIntermediateDirectories: true)
        try Data("mine".utf8).write(to: foreign.appendingPathComponent("todo.txt"))
        let refused = try await cli.holocron("build", "--data", "data", "--output", "notes", in: folder)
        #expect(refused.status != 0)
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent(".notes.spare").path))

        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("real"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: folder.appendingPathComponent("link").path, withDestinationPath: "real/site")
        let linked = try await cli.holocron("build", "--data", "data", "--output", "link", in: folder)
        #expect(linked.status == 0, "\(linked.stderr)")
        #expect(
            FileManager.default.fileExists(
                atPath: folder.appendingPathComponent("real/.site.spare/data/people.decoded").path))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent(".link.spare").path))
    }

    @Test func aSiteBuiltOverTheCacheIsTheSiteBuiltFromNothing() async throws {
        let folder = try cli.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = folder.appendingPathComponent("data")
        let start = SyntheticArchive.make(people: 30, planets: 20, species: 12, starships: 10, vehicles: 10)
        try SnapshotDirectory.write(start, to: data)
        var archive: Archive = (
            start.people, start.films, start.planets, start.species, start.starships, start.vehicles
        )
        let first = try await cli.holocron("build", "--data", "data", "--output", "out", in: folder)
        #expect(first.status == 0, "\(first.stderr)")
        let cache = folder.appendingPathComponent(".out.spare/data")
        for kind in ResourceKind.allCases {
            #expect(
                FileManager.default.fileExists(atPath: cache.appendingPathComponent("\(kind.rawValue).decoded").path),
                "\(kind)")
        }

        var random = SplitMix(seed: 0xDEC0DE)
        for round in 0..<8 {
            let changed: ResourceKind
            var what: String
            switch round % 7 { // every kind of edit, in turn
            case 0:
                let index = Int(random.next() % UInt64(archive.people.count))
                archive.people[index].mass = "\(round)77"
                archive.people[index].name += " Jr"
                (changed, what) = (.people, "a character renamed")
            case 1:
                archive.planets.remove(at: Int(random.next() % UInt64(archive.planets.count)))
                (changed, what) = (.planets, "a planet removed")
            case 2:
                var ship = archive.starships[Int(random.next() % UInt64(archive.starships.count))]
                let id = (archive.starships.map(\.id).max() ?? 0) + 1
                ship.name = "New Ship \(id)"
                ship.url = ResourceLink(url: "https://swapi.dev/api/starships/\(id)/", id: id)
                archive.starships.append(ship)
                (changed, what) = (.starships, "a starship added")
            case 3:
                archive.films[Int(random.next() % UInt64(archive.films.count))].title = "Retitled \(round)"
                (changed, what) = (.films, "a film retitled")
            case 4:
                let index = Int(random.next() % UInt64(archive.species.count))
                archive.species[index].homeworld =
                    archive.species[index].homeworld == nil
                    ? ResourceLink(url: "https://swapi.dev/api/planets/2/") : nil
                (changed, what) = (.species, "a species' homeworld")
            case 5:
                archive.vehicles[Int(random.next() % UInt64(archive.vehicles.count))].created = "some day \(round)"
                (changed, what) = (.vehicles, "a vehicle's time in another form")
            default:
                (changed, what) = (.people, "the people file written again unchanged")
            }
            switch changed {
            case .people: try Self.write(archive.people, .people, to: data)
            case .films: try Self.write(archive.films, .films, to: data)
            case .planets: try Self.write(archive.planets, .planets, to: data)
            case .species: try Self.write(archive.species, .species, to: data)
            case .starships: try Self.write(archive.starships, .starships, to: data)
            case .vehicles: try Self.write(archive.vehicles, .vehicles, to: data)
            }
            what = "round \(round), \(what)"
            let kept = try ResourceKind.allCases.map {
                try FileManager.default.attributesOfItem(
                    atPath: cache.appendingPathComponent("\($0.rawValue).decoded").path)[.systemFileNumber] as? Int
            }
            let edit = try await cli.holocron("build", "--data", "data", "--output", "out", in: folder)
            #expect(edit.status == 0, "\(what): \(edit.stderr)")
            // Only the changed file's cache was written again.
            for (index, kind) in ResourceKind.allCases.enumerated() {
                let now =
                    try FileManager.default.attributesOfItem(
                        atPath: cache.appendingPathComponent("\(kind.rawValue).decoded").path)[.systemFileNumber]
                    as? Int
                #expect((now == kept[index]) == (kind != changed), "\(what): \(kind)")
            }
            let fresh = "fresh-\(round)"
            let nothing = try await cli.holocron("build", "--data", "data", "--output", fresh, in: folder)
            #expect(nothing.status == 0, "\(what): \(nothing.stderr)")
            let (built, expected) = (
                try Self.files(of: folder.appendingPathComponent("out")),
                try Self.files(of: folder.appendingPathComponent(fresh))
            )
            #expect(built.count == expected.count && built.count > 100, "\(what)")
            let differing = expected.keys.filter { built[$0] != expected[$0] }.sorted()
            #expect(differing.isEmpty, "\(what): \(differing.prefix(5))")
            try FileManager.default.removeItem(at: folder.appendingPathComponent(fresh))
            try? FileManager.default.removeItem(at: folder.appendingPathComponent(".\(fresh).spare"))
        }
    }
}
