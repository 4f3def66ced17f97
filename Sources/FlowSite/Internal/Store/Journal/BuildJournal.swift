import FlowSiteUtilities
import Foundation

/// What a build keeps of the live site's build for the next process: `.NAME.spare/journal` (one per language).
/// With it, a build after an edit makes only the pages that read a changed input (``SiteBuilder/journalsEdits``).
///
/// One mapped binary file, sections in order:
/// - each page's walk record in discovery order, written as the walk goes: stored name, breadcrumb title,
///   ``WalkOutcome/linksFingerprint(targets:)``, trail, presenter, presentation, depth, kind, inputs read;
///   then their offsets;
/// - each page's products in made order: discovery index, file, title, summary, search section, content
///   fingerprint, whether it wrote files; then their offsets;
/// - every file with its manifest fingerprint; the input fingerprints (``InputFingerprints``);
/// - the meta block: build key, the live manifest's identity, counts, section starts; then its offset;
/// - the trailer: a checksum per mebibyte block, the meta start, their checksum, and a magic.
///
/// A build writes it front to back through one ``SealedFile``, which takes each block's checksum as it writes
/// the block and renames the file into place once the trailer follows.
///
/// An edit patches the journal in place (``SiteBuilder/patchJournal``): records appended, tables and meta block
/// written over, a new trailer appended. Once the appended part passes an eighth, the next edit walks in full and
/// writes the journal anew (``StoredJournal/isOutgrown``). A reader
/// refuses a torn journal by its checksums; a later patch is caught by the manifest identity or
/// ``StoredJournal/wasChanged`` before the edit commits.
enum BuildJournal {
    static let magic: [UInt8] = Array("FLOWJRN6".utf8)

    /// A commit writes a new manifest, so another build's site (or none) never matches a journal.
    static func manifestIdentity(of output: URL) -> [UInt64]? {
        FileIdentity(path: output.appendingPathComponent(SiteLayout.manifest).path)?.words
    }
}

extension Presentation {
    /// For journals and fingerprints.
    var code: UInt8 {
        switch self {
        case .root: 0
        case .push: 1
        case .modal: 2
        case .replace: 3
        case .back: 4
        }
    }

    init?(code: UInt8) {
        switch code {
        case 0: self = .root
        case 1: self = .push
        case 2: self = .modal
        case 3: self = .replace
        case 4: self = .back
        default: return nil
        }
    }
}

extension WalkOutcome {
    /// A fingerprint of everything by which this page moves other pages: title, failures, each link's target
    /// (discovery index), presentation and code location, and what flow lint reads.
    func linksFingerprint(targets indices: [Int32]) -> StableHash {
        var hash = StableHash()
        hash.combine(title)
        hash.combine(failure ?? "\u{0}")
        hash.combine(recovered ?? "\u{0}")
        hash.combine(indices.count)
        for index in indices { hash.combine(Int(index)) }
        for presentation in presentations { hash.combine(Int(presentation.code)) }
        for location in linkLocations { hash.combine(Int(location)) }
        for location in locations + [location].compactMap({ $0 }) {
            hash.combine(location.fileID)
            hash.combine(location.line)
        }
        hash.combine(location == nil ? 0 : 1)
        hash.combine(ownLinks)
        hash.combine(externalLinks)
        hash.combine(tabLinks)
        hash.combine(ending == nil ? 0 : ending == .emptyState ? 1 : 2)
        if let problems = labelProblems {
            hash.combine(problems.emptyCount)
            hash.combine(problems.firstEmpty?.description ?? "\u{0}")
            hash.combine(problems.ambiguousCount)
            if let first = problems.firstAmbiguous {
                hash.combine(first.label)
                hash.combine(first.first.description)
                hash.combine(first.second.description)
            }
        } else {
            hash.combine(-1)
        }
        for link in unhandled {
            hash.combine(link.label)
            hash.combine(link.target)
            hash.combine(link.shown.joined(separator: "\u{0}"))
        }
        hash.combine(error == nil ? 0 : 1)
        return hash
    }
}

/// Each page's walk record, in discovery order, written to a file as the walk goes.
final class WalkJournal<R: Route>: Sendable {
    /// ``StorableRoute/storedName``.
    let name: @Sendable (R) -> String
    private let state: Locked<State>

    private struct State {
        var file: SealedFile?
        var buffer = ByteWriter()
        var offsets: [UInt64] = []
        var failed = false
        /// A page failed or showed its error screen: the journal is not kept, so the next build reports it again.
        var unusual = false
    }

    init?(path: String, name: @escaping @Sendable (R) -> String) {
        guard let file = SealedFile(creating: path) else { return nil }
        self.name = name
        state = Locked(State(file: file))
    }

    deinit {
        state.withLock { state in state.file?.discard() }
    }

    func record(_ page: TakenPage<R>) {
        let (index, outcome, context) = (page.index, page.outcome, page.standing)
        let links = outcome.linksFingerprint(targets: page.targets)
        let name = name(page.route)
        state.withLock { state in
            guard !state.failed else { return }
            if outcome.failure != nil || outcome.recovered != nil { state.unusual = true }
            guard state.offsets.count == index else {
                state.failed = true
                return
            }
            guard let count = state.file?.count else { return }
            state.offsets.append(UInt64(count))
            Self.encode(name: name, outcome: outcome, links: links, context: context, into: &state.buffer)
            state.file?.append(&state.buffer)
        }
    }

    static func encode(
        name: String, outcome: WalkOutcome<R>, links: StableHash, context: PageStanding, into out: inout ByteWriter
    ) {
        out.string(name)
        out.string(outcome.title)
        out.hash(links)
        out.u8(context.presentation.code | (context.isDialogCopy ? 0x80 : 0))
        out.u32(UInt32(clamping: context.depth))
        out.i32(context.kind)
        out.i32(context.presenter)
        out.u32(UInt32(context.trail.count))
        for step in context.trail { out.i32(step) }
        out.u32(UInt32(outcome.inputs.count))
        for input in outcome.inputs { out.u64(input.rawValue) }
    }

    /// Writes the records' offsets; returns the file and where they begin, or `nil` (file removed).
    func finish(pages: Int) -> (file: SealedFile, offsets: Int)? {
        state.withLock { state in
            guard var file = state.file else { return nil }
            state.file = nil
            let offsetsStart = file.count
            var table = ByteWriter()
            for offset in state.offsets { table.u64(offset) }
            file.append(&table)
            guard !file.failed, !state.failed, !state.unusual, state.offsets.count == pages else {
                file.discard()
                return nil
            }
            return (file, offsetsStart)
        }
    }

    func discard() {
        state.withLock { state in
            state.file?.discard()
            state.file = nil
            state.failed = true
        }
    }
}
