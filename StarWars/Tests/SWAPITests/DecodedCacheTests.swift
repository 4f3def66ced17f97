import FlowSite
import Foundation
import StarWarsTestSupport
import Testing

@testable import SWAPI

/// A data file's resources kept as decoded come back equal to those its JSON decodes to, and
/// only for that very file and program; anything else in the cache is a miss, never a crash.
@Suite struct DecodedCacheTests {
    func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("decoded-cache-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Synthetic data with each of the values a resource can hold: links kept whole (another
    /// shape, an id past 31 bits), no homeworld, no episode, times that are not SWAPI's form,
    /// and names in other scripts.
    func writeData(to data: URL) throws {
        try SnapshotDirectory.write(SyntheticArchive.make(people: 40), to: data)
        func edit(_ file: String, _ change: (String) -> String) throws {
            let url = data.appendingPathComponent(file)
            try Data(change(try String(contentsOf: url, encoding: .utf8)).utf8).write(to: url)
        }
        try edit("people.json") {
            $0.replacingOccurrences(of: #""name" : "Person 3""#, with: #""name" : "Pérsön 3 ✨ 👩🏽‍🚀""#)
                .replacingOccurrences(
                    of: "https://swapi.dev/api/films/2/", with: "https://swapi.dev/api/films/2?format=json"
                )
                .replacingOccurrences(
                    of: #""created" : "2020-01-01T00:00:00.000000Z""#, with: #""created" : "yesterday""#)
        }
        try edit("films.json") {
            $0.replacingOccurrences(of: #""episode_id" : 5"#, with: #""episode_id" : null"#)
                .replacingOccurrences(
                    of: "https://swapi.dev/api/people/5/", with: "https://swapi.dev/api/people/99999999999/")
        }
        try edit("species.json") {
            $0.replacingOccurrences(
                of: #""homeworld" : "https://swapi.dev/api/planets/1/""#, with: #""homeworld" : null"#)
        }
    }

    /// A folder holding the data of ``writeData(to:)`` and an empty cache folder, for `body`;
    /// removed afterwards.
    func withDataAndCache(_ body: (_ data: URL, _ cache: DecodedCache) throws -> Void) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = folder.appendingPathComponent("data")
        try writeData(to: data)
        let cache = DecodedCache(folder: folder.appendingPathComponent("cache"), program: "test 1")
        try FileManager.default.createDirectory(at: cache.folder, withIntermediateDirectories: true)
        try body(data, cache)
    }

    @Test func whatTheCacheKeepsIsWhatTheFilesDecodeTo() throws {
        try withDataAndCache { data, cache in
            let directory = SnapshotDirectory(url: data)

            let decoded = try directory.load(reusing: nil, cache: cache)
            #expect(decoded.decoded == Set(ResourceKind.allCases))
            // A cache file for each kind, read back equal to what the JSON decoded to.
            for kind in ResourceKind.allCases {
                #expect(FileManager.default.fileExists(atPath: cache.path(of: kind)), "\(kind)")
            }
            let fileIdentity = { (kind: ResourceKind) in
                try #require(StableHash(identityOfFileAt: data.appendingPathComponent(kind.fileName).path))
            }
            func check<R: SwapiRecord>(_ type: R.Type, _ expected: [R]) throws {
                let kept = try #require(cache.load(R.self, fileIdentity: try fileIdentity(R.kind)), "\(R.kind)")
                #expect(kept.resources == expected, "\(R.kind)")
                #expect(kept.fingerprints == decoded.decodedResources.fingerprints[R.kind], "\(R.kind)")
            }
            let resources = decoded.decodedResources
            try check(Person.self, resources.people)
            try check(Film.self, resources.films)
            try check(Planet.self, resources.planets)
            try check(Species.self, resources.species)
            try check(Starship.self, resources.starships)
            try check(Vehicle.self, resources.vehicles)
            #expect(resources.people.contains { $0.name == "Pérsön 3 ✨ 👩🏽‍🚀" && $0.created == "yesterday" })
            #expect(resources.films.contains { $0.episodeID == nil })
            #expect(resources.films.contains { $0.characters.contains { $0.id == 99_999_999_999 } })

            // A second load reads the cache, leaves its files as they were, and makes the same.
            let inodes = try ResourceKind.allCases.map {
                try FileManager.default.attributesOfItem(atPath: cache.path(of: $0))[.systemFileNumber] as? Int
            }
            let again = try directory.load(reusing: nil, cache: cache)
            #expect(
                try ResourceKind.allCases.map {
                    try FileManager.default.attributesOfItem(atPath: cache.path(of: $0))[.systemFileNumber] as? Int
                } == inodes)
            #expect(again.archive == decoded.archive)
            #expect(
                again.resourceFingerprints.map { $0.mapValues { "\($0)" } }
                    == decoded.resourceFingerprints.map { $0.mapValues { "\($0)" } })
            #expect(again.resourceFingerprints != nil)

            // A file edited is decoded again where it changed (its other resources are the
            // cache's), and only its cache file is written anew.
            let people = data.appendingPathComponent("people.json")
            try Data(
                try String(contentsOf: people, encoding: .utf8).replacingOccurrences(
                    of: "Person 4", with: "Someone Else"
                ).utf8
            ).write(to: people)
            let edited = try directory.load(reusing: nil, cache: cache)
            #expect(edited.archive.people.contains { $0.name == "Someone Else" })
            #expect(!edited.archive.people.contains { $0.name == "Person 4" })
            let after = try ResourceKind.allCases.map {
                try FileManager.default.attributesOfItem(atPath: cache.path(of: $0))[.systemFileNumber] as? Int
            }
            for (index, kind) in ResourceKind.allCases.enumerated() {
                #expect((after[index] == inodes[index]) == (kind != .people), "\(kind)")
            }
            let plain = try directory.load(reusing: nil)
            #expect(plain.archive == edited.archive)
            #expect(
                plain.resourceFingerprints.map { $0.mapValues { "\($0)" } }
                    == edited.resourceFingerprints.map { $0.mapValues { "\($0)" } })

            // What a killed load left is removed by the next load, whatever it decodes; a live
            // process's is not.
            let dead = cache.path(of: .vehicles) + ".partial-2147483646"
            let live = cache.path(of: .people) + ".partial-1"
            for path in [dead, live] {
                #expect(FileManager.default.createFile(atPath: path, contents: Data("half".utf8)))
            }
            _ = try directory.load(reusing: nil, cache: cache)
            #expect(!FileManager.default.fileExists(atPath: dead))
            #expect(FileManager.default.fileExists(atPath: live), "pid 1 is alive")
        }
    }

    /// An edited file is decoded from its cache: each resource whose text is unchanged is the
    /// cache's, wherever it now stands, and only the others are decoded; the cache is made anew
    /// for the file as it now is, the unchanged resources' records copied. Whatever the edits
    /// (a value changed, a resource removed or added, so that the rest move, every resource
    /// changed), the load and the new cache hold what the file decodes to without a cache.
    @Test(arguments: [UInt64(1), 2, 3])
    func anEditedFileReusesWhatItsCacheKeepsAndDecodesTheRest(seed: UInt64) throws {
        try withDataAndCache { data, cache in
            let directory = SnapshotDirectory(url: data)
            var archive = try directory.load(reusing: nil).archive
            func save(_ people: [Person]) throws {
                archive = try SwapiArchive(
                    people: people, films: archive.films, planets: archive.planets,
                    species: archive.species, starships: archive.starships, vehicles: archive.vehicles
                )
                try SnapshotDirectory.write(archive, to: data)
            }
            // No person drives a vehicle at first, so the first one added who does brings a URL
            // prefix the earlier cache lacks.
            try save(
                archive.people.map {
                    var person = $0
                    person.vehicles = []
                    return person
                })
            _ = try directory.load(reusing: nil, cache: cache)
            var random = SplitMix(seed: seed)
            for step in 0..<13 {
                var people = archive.people
                let what: String
                switch step == 12 ? 3 : random.below(3) {
                case 0:
                    what = "a mass changed"
                    people[random.below(people.count)].mass = "\(1_000 + step)"
                case 1:
                    what = "a person removed"
                    people.remove(at: random.below(people.count))
                case 2:
                    what = "a person added among the others"
                    var added = people[random.below(people.count)]
                    added.url = try #require(
                        ResourceLink(url: "https://swapi.dev/api/people/\(2 + random.below(30))\(step)/"))
                    added.name = "Added \(step)"
                    added.vehicles = [archive.vehicles[random.below(archive.vehicles.count)].url]
                    if !people.contains(where: { $0.id == added.id }) { people.append(added) }
                default:
                    what = "every person renamed"
                    people = people.map {
                        var person = $0
                        person.name += " (renamed)"
                        return person
                    }
                }
                try save(people)
                let loaded = try directory.load(reusing: nil, cache: cache)
                let plain = try directory.load(reusing: nil)
                #expect(loaded.archive == plain.archive, "seed \(seed), step \(step): \(what)")
                #expect(
                    loaded.resourceFingerprints.map { $0.mapValues { "\($0)" } }
                        == plain.resourceFingerprints.map { $0.mapValues { "\($0)" } })
                // The cache now is the file's as it is: read back, it holds what the file decodes to.
                let fileIdentity = try #require(
                    StableHash(identityOfFileAt: data.appendingPathComponent("people.json").path))
                let kept = try #require(
                    cache.load(Person.self, fileIdentity: fileIdentity), "seed \(seed), step \(step): \(what)")
                #expect(kept.resources == plain.archive.people, "seed \(seed), step \(step): \(what)")
                #expect(kept.fingerprints == plain.decodedResources.fingerprints[.people])
            }
        }
    }

    /// The cache never changes what a file decodes to, or how it fails: with random bytes of
    /// the people's file changed (each change from the same file, whose cache the loads reuse),
    /// a load over the cache makes what a load without one makes, or fails with its message.
    @Test func aDamagedDataFileReadOverItsCacheFailsOrDecodesAsWithout() throws {
        try withDataAndCache { data, cache in
            let directory = SnapshotDirectory(url: data)
            let people = data.appendingPathComponent("people.json")
            let original = try Data(contentsOf: people)
            var random = SplitMix(seed: 0xF1135)
            var (decoded, failed) = (0, 0)
            for round in 0..<150 {
                // The earlier version's cache, then a change of one to three bytes.
                try original.write(to: people)
                _ = try directory.load(reusing: nil, cache: cache)
                var damaged = original
                for _ in 0...random.below(3) {
                    let bytes: [UInt8] = Array(#"{}[]":,\ 0a9"#.utf8)
                    damaged[random.below(damaged.count)] = bytes[random.below(bytes.count)]
                }
                try damaged.write(to: people)
                let withCache = Result { try directory.load(reusing: nil, cache: cache).archive }
                let without = Result { try directory.load(reusing: nil).archive }
                switch (withCache, without) {
                case (.success(let a), .success(let b)):
                    decoded += 1
                    #expect(a == b, "round \(round)")
                case (.failure(let a), .failure(let b)):
                    failed += 1
                    #expect("\(a)" == "\(b)", "round \(round)")
                default:
                    Issue.record("round \(round): one load failed and the other did not")
                }
            }
            #expect(decoded > 0 && failed > 0, "\(decoded) decoded, \(failed) failed")
        }
    }

    /// Another program's cache, one for another file, and a damaged one are all misses.
    @Test func aCacheOfAnotherProgramOrFileOrDamagedIsAMiss() throws {
        try withDataAndCache { data, cache in
            _ = try SnapshotDirectory(url: data).load(reusing: nil, cache: cache)
            let fileIdentity = try #require(
                StableHash(identityOfFileAt: data.appendingPathComponent("people.json").path))
            let other = try #require(StableHash(identityOfFileAt: data.appendingPathComponent("films.json").path))
            #expect(cache.load(Person.self, fileIdentity: fileIdentity) != nil)
            #expect(
                DecodedCache(folder: cache.folder, program: "test 2").load(Person.self, fileIdentity: fileIdentity)
                    == nil)
            #expect(cache.load(Person.self, fileIdentity: other) == nil)
            // Another kind's file under this kind's name.
            let path = cache.path(of: .people)
            let original = try Data(contentsOf: URL(fileURLWithPath: path))
            try FileManager.default.removeItem(atPath: path)
            try FileManager.default.copyItem(atPath: cache.path(of: .films), toPath: path)
            #expect(cache.load(Person.self, fileIdentity: fileIdentity) == nil)
            // Any byte changed, or the file cut short.
            for position in stride(from: 0, to: original.count, by: max(1, original.count / 97)) {
                var damaged = original
                damaged[position] ^= 0x20
                try damaged.write(to: URL(fileURLWithPath: path))
                #expect(cache.load(Person.self, fileIdentity: fileIdentity) == nil, "byte \(position)")
            }
            for length in [0, 1, 8, original.count / 2, original.count - 1] {
                try original.prefix(length).write(to: URL(fileURLWithPath: path))
                #expect(cache.load(Person.self, fileIdentity: fileIdentity) == nil, "\(length) bytes")
            }
            try original.write(to: URL(fileURLWithPath: path))
            #expect(cache.load(Person.self, fileIdentity: fileIdentity) != nil)
        }
    }

    /// Files whose checksum holds but whose contents are damaged (as only a hand-made file
    /// could be) are read without a crash: each is a miss or some resources.
    @Test func damagedContentsUnderAGoodChecksumNeverCrash() throws {
        try withDataAndCache { data, cache in
            _ = try SnapshotDirectory(url: data).load(reusing: nil, cache: cache)
            let original = [UInt8](try Data(contentsOf: URL(fileURLWithPath: cache.path(of: .films))))
            let fileIdentity = try #require(
                StableHash(identityOfFileAt: data.appendingPathComponent("films.json").path))
            var random = SplitMix(seed: 0xCAC4E)
            var read = 0
            for _ in 0..<3000 {
                var bytes = original
                for _ in 0..<(1 + Int(random.next() % 4)) {
                    let position = Int(random.next() % UInt64(bytes.count - 24))
                    bytes[position] = UInt8(truncatingIfNeeded: random.next())
                }
                // Sealed again, as the writer seals a file.
                let sealed = bytes.count - 24
                let checksum = bytes.withUnsafeBytes {
                    DecodedCache.Checksum.of(UnsafeRawBufferPointer(rebasing: $0[..<(sealed + 8)]))
                }
                withUnsafeBytes(of: checksum.littleEndian) {
                    bytes.replaceSubrange((sealed + 8)..<(sealed + 16), with: $0)
                }
                let result = bytes.withUnsafeBytes {
                    try? DecodedCache.Reader.contents(Film.self, in: $0, program: "test 1", fileIdentity: fileIdentity)
                }
                if result != nil { read += 1 }
            }
            // Some damage falls in text, which reads back as other text: not every file is refused.
            #expect(read > 0)
            #expect(
                original.withUnsafeBytes {
                    try? DecodedCache.Reader.contents(Film.self, in: $0, program: "test 1", fileIdentity: fileIdentity)
                } != nil)
        }
    }
}
