import FlowSiteUtilities
import Foundation

extension SiteBuilder {
    /// Patches the journal in place after an edit's commit: remade pages' records appended and pointed at,
    /// fingerprints and meta written over (a new fingerprints table appended when the input keys changed), a new
    /// trailer appended. Returns whether it patched; if not, the journal no longer matches the live site and the
    /// next build walks in full.
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
        let descriptor = open(
            SiteLayout.journalPath(of: output, folder: journal.folder), O_RDWR | O_NOFOLLOW | O_CLOEXEC)
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
        var newMeta = meta
        if fingerprints.keys != journal.fingerprints.keys {
            newMeta.fingerprints = journal.raw.count + appended.bytes.count
            JournalFile.encode(fingerprints, into: &appended)
        } else {
            let valuesAt = meta.fingerprints + 4 + fingerprints.count * 8
            let changed = fingerprints.values.indices.filter {
                fingerprints.values[$0] != journal.fingerprints.values[$0]
            }
            if changed.count > 1024 {
                var values = ByteWriter()
                for value in fingerprints.values { values.u64(value) }
                writes.append((valuesAt, values.bytes))
            } else {
                for index in changed { writes.append((valuesAt + index * 8, word(fingerprints.values[index]))) }
            }
        }
        newMeta.manifestIdentity = manifestIdentity
        var metaBytes = ByteWriter()
        newMeta.encode(into: &metaBytes)
        writes.append((journal.metaStart, metaBytes.bytes))
        let end = journal.raw.count + appended.bytes.count
        let blocks = patchedChecksums(journal, appended: appended.bytes, writes: writes)
        // The checksums describe the file that was checked only while the mapping still shows it.
        guard !journal.wasChanged else { return false }
        // The records first, in one write: until the trailer is written, the file ends in no trailer.
        guard appended.bytes.withUnsafeBytes({ writeAll(descriptor, $0, at: journal.raw.count) }),
            writes.allSatisfy({ write in
                write.bytes.withUnsafeBytes { writeAll(descriptor, $0, at: write.at) }
            })
        else { return false }
        return JournalFile.trailer(blocks: blocks, metaStart: journal.metaStart).withUnsafeBytes {
            writeAll(descriptor, $0, at: end)
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
