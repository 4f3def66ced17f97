import FlowSite
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
        try load(reusing: nil).archive
    }

    /// What a load read: the archive, and each file's identity (device, inode, size and times)
    /// when it was read, so the next load can keep the kinds whose files did not change.
    public struct Loaded: Sendable {
        public let archive: SwapiArchive
        let fileIdentities: [ResourceKind: StableHash]
        /// The resources as the files have them, before the archive leaves out relations it
        /// can't follow (which depends on the other files).
        let decodedResources: Resources
        /// The kinds whose files were decoded afresh (all of them without a previous load).
        public let decoded: Set<ResourceKind>

        /// A fingerprint of each resource's text in its file, by kind, with the resources' ids,
        /// in file order, mixed with the data's API roots (which decide what relations a
        /// resource keeps): a resource whose fingerprint is the same is the same in the archive.
        /// `nil` when a file was not read straight from its bytes.
        public var resourceFingerprints: [ResourceKind: (ids: [Int], fingerprints: [UInt64])]? {
            var hash = StableHash()
            for root in archive.apiRoots { hash.combine(root) }
            let roots = hash.low
            var result: [ResourceKind: (ids: [Int], fingerprints: [UInt64])] = [:]
            func pair<R: SwapiResource>(_ resources: [R]) {
                guard let fingerprints = decodedResources.fingerprints[R.kind], fingerprints.count == resources.count
                else { return }
                result[R.kind] = (resources.map(\.id), fingerprints.map { $0 ^ roots })
            }
            let resources = decodedResources
            pair(resources.people)
            pair(resources.films)
            pair(resources.planets)
            pair(resources.species)
            pair(resources.starships)
            pair(resources.vehicles)
            return result.count == ResourceKind.allCases.count ? result : nil
        }
    }

    /// Reads and decodes the six files, keeping from `previous` the resources of each file that
    /// is the very file it read then (same device, inode, size and times) and is not among
    /// `changed` (paths a watcher saw change).
    public func load(reusing previous: Loaded?, changed: Set<String> = []) throws -> Loaded {
        try load(reusing: previous, changed: changed, cache: nil)
    }

    /// ``load(reusing:changed:)``; with a `cache`, a file it keeps (the very file, read by this
    /// program) is read from it instead of decoded, and a file decoded is kept in it.
    package func load(reusing previous: Loaded?, changed: Set<String> = [], cache: DecodedCache?) throws -> Loaded {
        let url = url
        var fileIdentities: [ResourceKind: StableHash] = [:]
        var kept: Set<ResourceKind> = []
        for kind in ResourceKind.allCases {
            let path = url.appendingPathComponent(kind.fileName).path
            let fileIdentity = StableHash(identityOfFileAt: path)
            fileIdentities[kind] = fileIdentity
            if let fileIdentity, let previous, previous.fileIdentities[kind] == fileIdentity,
                !changed.contains(path),
                !changed.contains(url.appendingPathComponent(kind.fileName).standardizedFileURL.path)
            {
                kept.insert(kind)
            }
        }
        cache?.removeLeftovers()
        let resources = try decode(
            keeping: kept, from: previous?.decodedResources, fileIdentities: fileIdentities, cache: cache)
        let archive = try SwapiArchive(
            people: resources.people, films: resources.films, planets: resources.planets,
            species: resources.species, starships: resources.starships, vehicles: resources.vehicles
        )
        return Loaded(
            archive: archive, fileIdentities: fileIdentities, decodedResources: resources,
            decoded: Set(ResourceKind.allCases).subtracting(kept))
    }

    /// The six files' resources as decoded.
    struct Resources: Sendable {
        var people: [Person], films: [Film], planets: [Planet]
        var species: [Species], starships: [Starship], vehicles: [Vehicle]
        /// Each kind's resources' fingerprints, in file order, when its file was read straight
        /// from its bytes.
        var fingerprints: [ResourceKind: [UInt64]] = [:]
    }

    private func decode(
        keeping kept: Set<ResourceKind>, from previous: Resources?, fileIdentities: [ResourceKind: StableHash],
        cache: DecodedCache?
    ) throws -> Resources {
        let url = url
        let fingerprints = Locked<[ResourceKind: [UInt64]]>([:])
        if let previous {
            fingerprints.withLock { found in for kind in kept { found[kind] = previous.fingerprints[kind] } }
        }
        @Sendable func read<R: SwapiRecord>(_ type: R.Type) throws -> [R] {
            let file = url.appendingPathComponent(R.kind.fileName)
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: file.path, isDirectory: &isFolder) else {
                throw SwapiError(.missingFile(path: file.path))
            }
            guard !isFolder.boolValue else { throw SwapiError(.notAFile(path: file.path)) }
            let fileIdentity = fileIdentities[R.kind]
            if let cache, let fileIdentity, let (resources, found) = cache.load(R.self, fileIdentity: fileIdentity) {
                if let found { fingerprints.withLock { $0[R.kind] = found } }
                return resources
            }
            let data: Data
            do {
                data = try Data(contentsOf: file)
            } catch let error as CocoaError where error.code == .fileReadNoPermission {
                throw SwapiError(.unreadable(path: file.path, problem: .permissionDenied), underlying: error)
            } catch {
                throw SwapiError(.unreadable(path: file.path, problem: .failed), underlying: error)
            }
            // A file changed since the cache was made from it: a resource whose text is the same
            // is the cache's, and only the others are decoded (one edited record costs one
            // record's decoding, not the file's); the cache is made anew for this version, the
            // same resources' records copied over.
            let earlier = cache?.earlier(R.self)
            let recorder = fileIdentity.flatMap { cache?.recorder(for: R.self, fileIdentity: $0, continuing: earlier) }
            let (resources, found) = try SnapshotDecoder.decode(
                R.self, from: data, source: file.path, fingerprinting: true, reusing: earlier, recordingInto: recorder
            )
            // Kept only when read straight from its bytes (what was recorded is whole), and when
            // the file is still the one whose identity was taken before it was read.
            if let found {
                fingerprints.withLock { $0[R.kind] = found }
                recorder?.finish(count: resources.count, fingerprints: found) {
                    StableHash(identityOfFileAt: file.path) == fileIdentity
                }
            }
            return resources
        }
        // The six files decode on all cores; the first failure in file order is reported.
        let people = Slot<[Person]>()
        let films = Slot<[Film]>()
        let planets = Slot<[Planet]>()
        let species = Slot<[Species]>()
        let starships = Slot<[Starship]>()
        let vehicles = Slot<[Vehicle]>()
        var jobs: [@Sendable () -> Void] = []
        /// Fills `slot` with the kind's resources from `previous` when kept, or else adds a job
        /// that decodes them.
        func schedule<R: SwapiRecord>(_ slot: Slot<[R]>, _ previously: KeyPath<Resources, [R]>) {
            if let previous, kept.contains(R.kind) {
                slot.fill { previous[keyPath: previously] }
            } else {
                jobs.append { slot.fill { try read(R.self) } }
            }
        }
        schedule(people, \.people)
        schedule(films, \.films)
        schedule(planets, \.planets)
        schedule(species, \.species)
        schedule(starships, \.starships)
        schedule(vehicles, \.vehicles)
        let work = jobs
        DispatchQueue.concurrentPerform(iterations: work.count) { work[$0]() }
        return try Resources(
            people: people.value(), films: films.value(), planets: planets.value(),
            species: species.value(), starships: starships.value(), vehicles: vehicles.value(),
            fingerprints: fingerprints.withLock { $0 }
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
        func read<R: SwapiRecord>(_ type: R.Type) throws -> [R] {
            let text = EmbeddedFiles.text("snapshot/" + R.kind.fileName)
            return try SnapshotDecoder.decode(
                R.self, from: Data(text.utf8), source: "embedded snapshot \(R.kind.fileName)")
        }
        return try SwapiArchive(
            people: read(Person.self),
            films: read(Film.self),
            planets: read(Planet.self),
            species: read(Species.self),
            starships: read(Starship.self),
            vehicles: read(Vehicle.self)
        )
    }
}

/// One result of work done on another thread, read once the work is done.
private final class Slot<Value: Sendable>: @unchecked Sendable {
    private var result: Result<Value, any Error>?

    func fill(_ work: () throws -> Value) { result = Result(catching: work) }

    func value() throws -> Value { try result!.get() }
}
