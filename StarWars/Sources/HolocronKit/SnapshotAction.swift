import Foundation
import SWAPI

/// Everything `holocron snapshot` does, as a value: reads an archive (from a live API, or made
/// up at a multiple of SWAPI's size) and writes it as a snapshot folder.
public struct SnapshotAction: Sendable {
    /// Where the archive comes from.
    public enum Input: Sendable {
        /// Any data source, such as a live API.
        case source(DataSource)
        /// Synthetic data at this multiple of SWAPI's counts (1 = 82 people, 60 planets, …).
        case synthetic(scale: Int)
    }

    public var input: Input
    /// The folder the six JSON files go to.
    public var output: URL
    public var quiet: Bool

    public init(input: Input, output: URL, quiet: Bool = false) {
        self.input = input
        self.output = output
        self.quiet = quiet
    }

    /// Reads and writes the archive; returns what was written.
    public func run() async throws -> SwapiArchive {
        let archive: SwapiArchive
        switch input {
        case .synthetic(let scale):
            archive = SyntheticArchive.make(
                people: 82 * scale, planets: 60 * scale, species: 37 * scale, starships: 36 * scale,
                vehicles: 39 * scale
            )
        case .source(let source):
            archive = try await source.load(
                sleep: { try await Task.sleep(for: $0) }, reporter: ProgressReporter(quiet: quiet))
        }
        try SnapshotDirectory.write(archive, to: output)
        return archive
    }
}
