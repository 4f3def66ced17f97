import Foundation

/// What `holocron build` keeps of the build that made the live site, for the next run of the
/// command (a new process, with no memory of its own): `.NAME.spare/journal`, beside the spare
/// generation (one per language in a multilingual site, each describing its language's folder). With it, a build after an edit makes only the pages that read a changed input
/// (see ``SiteBuilder/journalsEdits``).
///
/// One binary file, mapped (``FileContents``), sections in this order:
/// - the walk's record of every page, in discovery order (written as the walk goes, so memory
///   does not grow with the site): its route's ``StorableRoute/storedName``, its breadcrumb
///   title, the fingerprint of where its links lead (``WalkOutcome/leadsFingerprint(targets:)``),
///   where it stands (trail and presenter as discovery indices, presentation, depth, kind) and
///   the inputs it read; then their offsets;
/// - what each page left, in the order pages were made: its discovery index, file, title,
///   summary, search section, content fingerprint, and whether it wrote files of its own; then
///   their offsets;
/// - every file of the site with its manifest fingerprint;
/// - the app's input fingerprints (``InputFingerprints``);
/// - the meta block: the build key, the live manifest's identity (the journal describes that
///   site and no other), counts, and where each section starts; then its offset;
/// - the trailer: a checksum of each block of a mebibyte of all that, where the meta block
///   starts, a checksum of those, and a magic (``JournalFile/trailer(blocks:metaStart:)``).
///
/// An edit patches the live journal in place rather than writing it again (it grows with the
/// site): its pages' new records are appended, the offset tables, fingerprints and meta block
/// written over, and a new trailer appended, whose checksums of the blocks written into are made
/// from the mapped journal with the patch laid over it (``SiteBuilder/patchJournal``); it is
/// written whole again when the appended part passes an eighth of it. A build that maps it
/// meanwhile refuses it when it was torn as it was checked (the checksums); a patch written
/// after that comes from a build that committed another manifest, and the edit's check just
/// before its own commit finds that the identity the journal records no longer matches the
/// live manifest, or that the file changed since it was mapped (``StoredJournal/wasChanged``).
enum BuildJournal {
    static let magic: [UInt8] = Array("HOLOJRN5".utf8)

    /// `.NAME.spare/journal` for a site of one language, `.NAME.spare/journal-es` for the
    /// language whose folder is `es/` in a multilingual site (each language keeps its own).
    static func path(of output: URL, folder: String = "") -> String {
        SiteWriter.spareFolder(of: output).appendingPathComponent(name(folder: folder)).path
    }

    /// The journal's file name for the language built in `folder`.
    static func name(folder: String) -> String {
        folder.isEmpty ? "journal" : "journal-" + folder.dropLast()
    }

    /// The live manifest's identity: a commit writes a new manifest, so another build's site
    /// (or none) never matches a journal.
    static func manifestStamp(of output: URL) -> [UInt64]? {
        FileIdentity(path: output.appendingPathComponent(SiteWriter.manifestName).path)?.words
    }
}

/// Where a page stood when the walk made it, by discovery index: what a journal keeps to make
/// the page again in its place.
struct JournalContext: Sendable {
    var trail: [Int32]
    var presenter: Int32
    var presentation: Presentation
    var depth: Int
    var kind: Int32
    /// Whether the page is a tab's root shown as a dialog (stored in the presentation's top bit).
    var isDialogCopy = false
}

extension Presentation {
    /// A small number for journals and fingerprints.
    var code: UInt8 {
        switch self {
        case .root: 0
        case .push: 1
        case .modal: 2
        case .replace: 3
        }
    }

    init?(code: UInt8) {
        switch code {
        case 0: self = .root
        case 1: self = .push
        case 2: self = .modal
        case 3: self = .replace
        default: return nil
        }
    }
}

extension WalkOutcome {
    /// A fingerprint of everything by which this page moves other pages (see
    /// ``leadsLike(_:)``): its title, failures, and each link's target (as its discovery index
    /// in the walk), presentation and the code that chose it, and what flow lint reads.
    func leadsFingerprint(targets indices: [Int32]) -> StableHash {
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

/// What a walk leaves of each page for the journal, in discovery order, written to a file as
/// it goes (the walk's own task takes pages in that order, one at a time).
final class WalkJournal<R: Route>: Sendable {
    /// The stored name of a route (``StorableRoute/storedName``).
    let name: @Sendable (R) -> String
    let path: String
    private let state: Locked<State>

    private struct State {
        var buffer = ByteWriter()
        var offsets: [UInt64] = []
        var written: UInt64 = 0
        var descriptor: Int32
        var failed = false
        /// Whether a page failed or showed its error screen: such a build's journal is not
        /// kept (the next build reports those pages again by making them).
        var unusual = false
    }

    /// A journal written to a new file at `path`, or `nil` when it can't be made.
    init?(path: String, name: @escaping @Sendable (R) -> String) {
        let descriptor = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return nil }
        self.path = path
        self.name = name
        state = Locked(State(descriptor: descriptor))
    }

    deinit {
        state.withLock { state in
            if state.descriptor >= 0 { close(state.descriptor) }
        }
    }

    /// Records the page at discovery index `index`.
    func record(_ route: R, index: Int, outcome: WalkOutcome<R>, context: JournalContext, targets: [Int32]) {
        let leads = outcome.leadsFingerprint(targets: targets)
        let name = name(route)
        state.withLock { state in
            guard !state.failed else { return }
            if outcome.failure != nil || outcome.recovered != nil { state.unusual = true }
            guard state.offsets.count == index else {
                state.failed = true
                return
            }
            state.offsets.append(state.written + UInt64(state.buffer.bytes.count))
            Self.encode(name: name, outcome: outcome, leads: leads, context: context, into: &state.buffer)
            if state.buffer.bytes.count >= 1 << 20 { Self.flush(&state) }
        }
    }

    /// One page's walk record.
    static func encode(
        name: String, outcome: WalkOutcome<R>, leads: StableHash, context: JournalContext, into out: inout ByteWriter
    ) {
        out.string(name)
        out.string(outcome.title)
        out.hash(leads)
        out.u8(context.presentation.code | (context.isDialogCopy ? 0x80 : 0))
        out.u32(UInt32(clamping: context.depth))
        out.i32(context.kind)
        out.i32(context.presenter)
        out.u32(UInt32(context.trail.count))
        for step in context.trail { out.i32(step) }
        out.u32(UInt32(outcome.inputs.count))
        for input in outcome.inputs { out.u64(input.rawValue) }
    }

    private static func flush(_ state: inout State) {
        let ok = state.buffer.bytes.withUnsafeBytes { JournalFile.writeAll(state.descriptor, $0) }
        if !ok { state.failed = true }
        state.written += UInt64(state.buffer.bytes.count)
        state.buffer.bytes.removeAll(keepingCapacity: true)
    }

    /// Ends the walk's part: its records are in the file, followed by their offsets. Returns
    /// the open file and where the offsets begin, or `nil` when the journal can't be used
    /// (then the file is removed).
    func finish(pages: Int) -> (descriptor: Int32, offsets: UInt64, end: UInt64)? {
        state.withLock { state in
            Self.flush(&state)
            let offsetsStart = state.written
            var table = ByteWriter()
            for offset in state.offsets { table.u64(offset) }
            state.buffer = table
            Self.flush(&state)
            guard !state.failed, !state.unusual, state.offsets.count == pages else {
                close(state.descriptor)
                state.descriptor = -1
                unlink(path)
                return nil
            }
            let descriptor = state.descriptor
            state.descriptor = -1
            return (descriptor, offsetsStart, state.written)
        }
    }

    /// Gives up: the file is removed.
    func discard() {
        state.withLock { state in
            if state.descriptor >= 0 { close(state.descriptor) }
            state.descriptor = -1
            state.failed = true
        }
        unlink(path)
    }
}
