import Foundation

extension SiteBuilder {
    /// Writes the journal whole after an edit's commit: remade pages' records anew, new fingerprints and identity.
    static func rewriteJournal(
        _ journal: StoredJournal, remakes: [Remake], remade: [Remade],
        replaced: [(hashAt: Int, fingerprint: StableHash)],
        fingerprints: InputFingerprints, output: URL
    ) {
        var byIndex: [Int: (record: StoredJournal.WalkRecord, outcome: WalkOutcome<C.R>)] = [:]
        var byPosition: [Int: JournalFile.Product] = [:]
        for (remake, page) in zip(remakes, remade) {
            byIndex[remake.index] = (remake.record, page.outcome)
            byPosition[remake.position] = page.product
        }
        let name = BuildJournal.name(folder: journal.folder)
        let temporary = output.deletingLastPathComponent().appendingPathComponent(
            SiteWriter.siblingName(of: output, role: name, pid: getpid())
        ).path
        guard SiteWriter.prepareSpareFolder(of: output) else { return }
        let descriptor = open(temporary, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        // Written as made, old runs copied straight from the old bytes: the journal grows with the site.
        var sink = JournalSink(descriptor: descriptor)
        let old = journal.raw
        var metaStart = 0
        let done: Bool =
            (try? { () throws -> Bool in
                // Old records are copied in runs, new ones encoded. A record ends at the next one's start when that
                // follows it; one an edit appended (or the one before it) is measured by `recordEnd`.
                func section(
                    offsets: Int, end: Int, recordEnd: (Int) throws -> Int, encode: (Int, inout ByteWriter) -> Bool
                ) throws -> [UInt64] {
                    let starts = try journal.offsets(at: offsets)
                    var written: [UInt64] = []
                    written.reserveCapacity(journal.pages)
                    var run = 0..<0
                    func copyRun() {
                        guard !run.isEmpty else { return }
                        sink.write(UnsafeRawBufferPointer(rebasing: old[run]))
                        run = 0..<0
                    }
                    for index in 0..<journal.pages {
                        var fresh = ByteWriter()
                        if encode(index, &fresh) {
                            copyRun()
                            written.append(UInt64(sink.position))
                            sink.write(fresh.bytes)
                            continue
                        }
                        let start = starts[index]
                        let next = index + 1 < journal.pages ? starts[index + 1] : end
                        let stop = start < next && next <= end ? next : try recordEnd(start)
                        guard start >= 0, start < stop, stop <= old.count else { throw ByteReader.Malformed() }
                        if run.isEmpty || run.upperBound != start {
                            copyRun()
                            run = start..<start
                        }
                        written.append(UInt64(sink.position + start - run.lowerBound))
                        run = run.lowerBound..<stop
                    }
                    copyRun()
                    return written
                }
                func table(_ offsets: [UInt64]) {
                    var out = ByteWriter()
                    for offset in offsets { out.u64(offset) }
                    sink.write(out.bytes)
                }
                var meta = journal.meta
                let walkOffsets = try section(
                    offsets: meta.walkOffsets, end: meta.walkOffsets, recordEnd: journal.walkRecordEnd
                ) { index, fresh in
                    guard let (record, outcome) = byIndex[index] else { return false }
                    WalkJournal<C.R>.encode(
                        name: record.name, outcome: outcome, links: record.links, context: record.context, into: &fresh)
                    return true
                }
                meta.walkOffsets = sink.position
                table(walkOffsets)
                let productsStart = sink.position
                let productOffsets = try section(
                    offsets: meta.productOffsets, end: meta.productOffsets, recordEnd: journal.productEnd
                ) { position, fresh in
                    guard let product = byPosition[position] else { return false }
                    product.encode(into: &fresh)
                    return true
                }
                meta.products = productsStart
                meta.productOffsets = sink.position
                table(productOffsets)
                guard meta.files <= meta.kinds, meta.kinds <= old.count else { throw ByteReader.Malformed() }
                let filesStart = sink.position
                var from = meta.files
                for (hashAt, fingerprint) in replaced.sorted(by: { $0.hashAt < $1.hashAt }) {
                    guard hashAt >= from, hashAt + 16 <= meta.kinds else { throw ByteReader.Malformed() }
                    sink.write(UnsafeRawBufferPointer(rebasing: old[from..<hashAt]))
                    var hash = ByteWriter()
                    hash.hash(fingerprint)
                    sink.write(hash.bytes)
                    from = hashAt + 16
                }
                sink.write(UnsafeRawBufferPointer(rebasing: old[from..<meta.kinds]))
                meta.files = filesStart
                guard let manifestIdentity = BuildJournal.manifestIdentity(of: output) else {
                    throw ByteReader.Malformed()
                }
                meta.manifestIdentity = manifestIdentity
                let tail = JournalFile.tail(
                    start: sink.position, meta: meta, kinds: journal.kinds, fingerprints: fingerprints)
                metaStart = JournalFile.metaStart(ofTail: tail)
                sink.write(tail)
                return sink.finish()
            }()) ?? false
        // A journal cut short or written while copied gave zeros or other records: the next build starts afresh.
        guard done, !journal.wasChanged,
            JournalFile.trailer(blocks: sink.blocks.finish(), metaStart: metaStart).withUnsafeBytes({
                JournalFile.writeAll(descriptor, $0)
            }),
            rename(temporary, BuildJournal.path(of: output, folder: journal.folder)) == 0
        else {
            unlink(temporary)
            return
        }
    }
}

extension SiteBuilder {
    /// Whether an edit may patch `journal` in place: the same input keys, and what edits appended is under an
    /// eighth of the file (past that it is written whole, without the records edits left behind).
    static func mayPatch(_ journal: StoredJournal, fingerprints: InputFingerprints) -> Bool {
        var meta = ByteWriter()
        journal.meta.encode(into: &meta)
        let firstWritten =
            journal.metaStart + meta.bytes.count + 8 + (journal.blocks.count * 16 + JournalFile.trailerEnd)
        return fingerprints.keys == journal.fingerprints.keys
            && journal.raw.count - firstWritten <= journal.raw.count / 8
    }

    /// Patches the journal in place after an edit's commit: remade pages' records appended and pointed at,
    /// fingerprints and meta written over, a new trailer appended. Returns whether it patched.
    ///
    /// Only the file `journal` was read from is patched. Checksums come from the mapped bytes with the patch laid
    /// over, not read back: a killed patch ends in no trailer, and a concurrent write fails the checksums, so
    /// neither leaves a wrong journal to trust.
    static func patchJournal(
        _ journal: StoredJournal, remakes: [Remake], remade: [Remade],
        replaced: [(hashAt: Int, fingerprint: StableHash)],
        fingerprints: InputFingerprints, output: URL
    ) -> Bool {
        guard let manifestIdentity = BuildJournal.manifestIdentity(of: output) else { return false }
        let descriptor = open(BuildJournal.path(of: output, folder: journal.folder), O_RDWR | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        guard let file = FileIdentity(descriptor: descriptor), file.isSameFile(as: journal.identity),
            file.size == journal.raw.count
        else { return false }
        func word(_ value: UInt64) -> [UInt8] {
            var out = ByteWriter()
            out.u64(value)
            return out.bytes
        }
        let meta = journal.meta
        // Records appended past the old end; offset-table entries, fingerprints and meta written over.
        var appended = ByteWriter()
        var writes: [(at: Int, bytes: [UInt8])] = []
        for (remake, page) in zip(remakes, remade) {
            writes.append((meta.walkOffsets + remake.index * 8, word(UInt64(journal.raw.count + appended.bytes.count))))
            WalkJournal<C.R>.encode(
                name: remake.record.name, outcome: page.outcome, links: remake.record.links,
                context: remake.record.context, into: &appended)
            writes.append(
                (meta.productOffsets + remake.position * 8, word(UInt64(journal.raw.count + appended.bytes.count))))
            page.product.encode(into: &appended)
        }
        for (hashAt, fingerprint) in replaced {
            var hash = ByteWriter()
            hash.hash(fingerprint)
            writes.append((hashAt, hash.bytes))
        }
        let valuesAt = meta.fingerprints + 4 + fingerprints.count * 8
        let changed = fingerprints.values.indices.filter { fingerprints.values[$0] != journal.fingerprints.values[$0] }
        if changed.count > 1024 {
            var values = ByteWriter()
            for value in fingerprints.values { values.u64(value) }
            writes.append((valuesAt, values.bytes))
        } else {
            for index in changed { writes.append((valuesAt + index * 8, word(fingerprints.values[index]))) }
        }
        var newMeta = meta
        newMeta.manifestIdentity = manifestIdentity
        var metaBytes = ByteWriter()
        newMeta.encode(into: &metaBytes)
        writes.append((journal.metaStart, metaBytes.bytes))
        let end = journal.raw.count + appended.bytes.count
        let blocks = patchedChecksums(journal, appended: appended.bytes, writes: writes)
        // The checksums describe the file that was checked only while the mapping still shows it.
        guard !journal.wasChanged else { return false }
        // The records first, in one write: until the trailer is written, the file ends in no trailer.
        guard appended.bytes.withUnsafeBytes({ JournalFile.writeAll(descriptor, $0, at: journal.raw.count) }),
            writes.allSatisfy({ write in
                write.bytes.withUnsafeBytes { JournalFile.writeAll(descriptor, $0, at: write.at) }
            })
        else { return false }
        return JournalFile.trailer(blocks: blocks, metaStart: journal.metaStart).withUnsafeBytes {
            JournalFile.writeAll(descriptor, $0, at: end)
        }
    }

    /// Each block's checksum once `appended` follows and `writes` are laid over; blocks before the old trailer
    /// that no write reaches keep theirs.
    static func patchedChecksums(
        _ journal: StoredJournal, appended: [UInt8], writes: [(at: Int, bytes: [UInt8])]
    ) -> [StableHash] {
        let size = JournalFile.checksumBlock
        var dirty: Set<Int> = []
        for write in writes where !write.bytes.isEmpty {
            for block in write.at / size...(write.at + write.bytes.count - 1) / size { dirty.insert(block) }
        }
        let old = journal.raw.count
        let end = old + appended.count
        let kept = journal.trailerStart / size
        var buffer = [UInt8](repeating: 0, count: size)
        return (0..<JournalFile.blockCount(end)).map { index in
            if index < kept, !dirty.contains(index) { return journal.blocks[index] }
            let start = index * size
            let stop = min(start + size, end)
            return buffer.withUnsafeMutableBytes { block in
                // Copies the part of `bytes` (at `offset` in the file) that falls in this block.
                func lay(_ bytes: UnsafeRawBufferPointer, at offset: Int) {
                    let from = max(start, offset)
                    let to = min(stop, offset + bytes.count)
                    guard from < to else { return }
                    block.baseAddress!.advanced(by: from - start).copyMemory(
                        from: bytes.baseAddress!.advanced(by: from - offset), byteCount: to - from)
                }
                lay(journal.raw, at: 0)
                appended.withUnsafeBytes { lay($0, at: old) }
                for write in writes { write.bytes.withUnsafeBytes { lay($0, at: write.at) } }
                return JournalFile.checksum(UnsafeRawBufferPointer(rebasing: block[0..<stop - start]))
            }
        }
    }
}

/// Bytes going to a file in order, small pieces gathered and large ones written through.
struct JournalSink {
    let descriptor: Int32
    private(set) var position = 0
    private(set) var blocks = JournalFile.BlockChecksums()
    private var buffer: [UInt8] = []
    private var failed = false

    init(descriptor: Int32) { self.descriptor = descriptor }

    mutating func write(_ bytes: [UInt8]) { bytes.withUnsafeBytes { write($0) } }

    mutating func write(_ bytes: UnsafeRawBufferPointer) {
        position += bytes.count
        blocks.add(bytes)
        if buffer.count + bytes.count < 1 << 16 {
            buffer.append(contentsOf: bytes)
            return
        }
        flush()
        if !JournalFile.writeAll(descriptor, bytes) { failed = true }
    }

    private mutating func flush() {
        if !buffer.isEmpty, !buffer.withUnsafeBytes({ JournalFile.writeAll(descriptor, $0) }) { failed = true }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Whether every write succeeded.
    mutating func finish() -> Bool {
        flush()
        return !failed
    }
}

extension StableHash {
    init(of bytes: [UInt8]) {
        self.init()
        combine(bytes)
    }

    init(of bytes: UnsafeBufferPointer<UInt8>) {
        self.init()
        combine(UnsafeRawBufferPointer(bytes))
    }
}
