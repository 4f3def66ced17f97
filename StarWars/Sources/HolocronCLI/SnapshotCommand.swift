import ArgumentParser
import Foundation
import HolocronKit
import SWAPI

/// `holocron snapshot`: writes SWAPI data as a snapshot folder that `holocron build --data` reads.
struct SnapshotCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "snapshot",
        abstract: "Write SWAPI data as a snapshot folder (people.json, films.json, …) for `holocron build --data`.",
        discussion: """
            With --api, downloads every resource from a SWAPI server (through the same cache as \
            `holocron build --api`), so a site can be pinned to one download. With --synthetic, \
            writes made-up data with SWAPI's shape and quirks, SCALE times SWAPI's full counts: \
            for benchmarks and tests.
            """
    )

    @Option(name: .shortAndLong, help: ArgumentHelp("The folder to write the six JSON files to.", valueName: "dir"))
    var output: String

    @OptionGroup(title: "Data")
    var fetch: FetchOptions

    @Flag(name: .shortAndLong, help: "Print nothing but errors.")
    var quiet = false

    @Option(
        help: ArgumentHelp(
            "Write synthetic data at this multiple of SWAPI's counts (1 = 82 people, 60 planets, …).",
            valueName: "scale"))
    var synthetic: Int?

    func validate() throws {
        if fetch.data != nil {
            throw ValidationError("snapshot writes data; it reads from --api or --synthetic, not --data.")
        }
        guard let synthetic else {
            if fetch.api == nil {
                throw ValidationError("Say where the data comes from: --api URL or --synthetic SCALE.")
            }
            return
        }
        if fetch.api != nil { throw ValidationError("Give --api or --synthetic, not both.") }
        guard (1...1000).contains(synthetic) else {
            throw ValidationError("--synthetic takes a scale from 1 to 1000.")
        }
    }

    func run() async throws {
        let input: SnapshotAction.Input =
            synthetic.map { .synthetic(scale: $0) } ?? .source(fetch.source(cacheBeside: URL(fileURLWithPath: output)))
        let archive = try await SnapshotAction(input: input, output: URL(fileURLWithPath: output), quiet: quiet).run()
        if !quiet {
            print(
                """
                Wrote \(archive.people.count) people, \(archive.films.count) films, \(archive.planets.count) planets, \
                \(archive.species.count) species, \(archive.starships.count) starships and \(archive.vehicles.count) \
                vehicles to \(output)
                """
            )
        }
    }
}
