/// A place in a text file, as an editor shows it: line and column from 1 (the column counts
/// characters, not bytes), and the byte from 1, for a hex viewer.
public struct TextPosition: Sendable, Hashable, CustomStringConvertible {
    public let line: Int
    public let column: Int
    public let byte: Int

    public init(line: Int, column: Int, byte: Int) {
        self.line = line
        self.column = column
        self.byte = byte
    }

    /// The position of the byte at `offset` (from 0) in UTF-8 `bytes`, which are valid up to it.
    init(offset: Int, in bytes: UnsafeRawBufferPointer) {
        var line = 1
        var lineStart = 0
        for index in 0..<offset where bytes[index] == UInt8(ascii: "\n") {
            line += 1
            lineStart = index + 1
        }
        // Characters so far on the line: every byte that does not continue a UTF-8 sequence.
        var column = 1
        for index in lineStart..<offset where bytes[index] & 0xC0 != 0x80 { column += 1 }
        self.init(line: line, column: column, byte: offset + 1)
    }

    public var description: String { "line \(line), column \(column) (byte \(byte))" }
}
