import Foundation

/// A folder holding SWAPI data as six JSON arrays (`people.json`, `films.json`, …), each
/// resource exactly as the REST API returns it.
public struct SnapshotDirectory: Sendable {
    /// The folder.
    public let url: URL

    public init(url: URL) { self.url = url }

    /// Reads and decodes all six files.
    /// - Throws: ``SwapiError`` naming the missing, unreadable or malformed file, the position
    ///   (line and column, or resource), the field and what was expected.
    public func load() throws -> SwapiArchive {
        let url = url
        @Sendable func read<R: SwapiJSONDecodable>(_ type: R.Type) throws -> [R] {
            let file = url.appendingPathComponent(R.kind.fileName)
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: file.path, isDirectory: &isFolder) else {
                throw SwapiError(.missingFile(path: file.path))
            }
            guard !isFolder.boolValue else { throw SwapiError(.notAFile(path: file.path)) }
            let data: Data
            do {
                data = try Data(contentsOf: file)
            } catch let error as CocoaError where error.code == .fileReadNoPermission {
                throw SwapiError(.unreadable(path: file.path, problem: .permissionDenied), underlying: error)
            } catch {
                throw SwapiError(.unreadable(path: file.path, problem: .failed), underlying: error)
            }
            return try SnapshotDecoder.decode(R.self, from: data, source: file.path)
        }
        // The six files decode on all cores; the first failure in file order is reported.
        let people = Slot<[Person]>(), films = Slot<[Film]>(), planets = Slot<[Planet]>()
        let species = Slot<[Species]>(), starships = Slot<[Starship]>(), vehicles = Slot<[Vehicle]>()
        let jobs: [@Sendable () -> Void] = [
            { people.fill { try read(Person.self) } }, { films.fill { try read(Film.self) } },
            { planets.fill { try read(Planet.self) } }, { species.fill { try read(Species.self) } },
            { starships.fill { try read(Starship.self) } }, { vehicles.fill { try read(Vehicle.self) } },
        ]
        DispatchQueue.concurrentPerform(iterations: jobs.count) { jobs[$0]() }
        return try SwapiArchive(
            people: people.value(), films: films.value(), planets: planets.value(),
            species: species.value(), starships: starships.value(), vehicles: vehicles.value()
        )
    }

    /// Writes `archive` into the folder in the same format, with sorted keys and ids, so a
    /// snapshot round-trips byte for byte.
    public static func write(_ archive: SwapiArchive, to url: URL) throws {
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        func write(_ resources: [some SwapiResource], _ kind: ResourceKind) throws {
            var data = try encoder.encode(resources)
            data.append(0x0A)
            try data.write(to: url.appendingPathComponent(kind.fileName), options: .atomic)
        }
        try write(archive.people, .people)
        try write(archive.films, .films)
        try write(archive.planets, .planets)
        try write(archive.species, .species)
        try write(archive.starships, .starships)
        try write(archive.vehicles, .vehicles)
    }
}

/// The snapshot built into holocron: Episodes I–VI, their characters, and everything they
/// reference. It is what `holocron build` uses when no data is given.
public enum EmbeddedSnapshot {
    /// Decodes the embedded files.
    public static func load() throws -> SwapiArchive {
        func read<R: SwapiJSONDecodable>(_ type: R.Type, _ bytes: [UInt8]) throws -> [R] {
            try SnapshotDecoder.decode(R.self, from: Data(bytes), source: "embedded snapshot \(R.kind.fileName)")
        }
        return try SwapiArchive(
            people: read(Person.self, PackageResources.people_json),
            films: read(Film.self, PackageResources.films_json),
            planets: read(Planet.self, PackageResources.planets_json),
            species: read(Species.self, PackageResources.species_json),
            starships: read(Starship.self, PackageResources.starships_json),
            vehicles: read(Vehicle.self, PackageResources.vehicles_json)
        )
    }
}

/// One result of work done on another thread, read once the work is done.
private final class Slot<Value: Sendable>: @unchecked Sendable {
    private var result: Result<Value, any Error>?

    func fill(_ work: () throws -> Value) { result = Result(catching: work) }

    func value() throws -> Value { try result!.get() }
}
