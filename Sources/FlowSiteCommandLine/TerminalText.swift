import Logging

/// Text that is safe to print on a terminal: data quoted in a message can't move the cursor,
/// clear the screen or retitle the window.
///
/// Every control character but line feed and tab (C0, DEL and C1, which take in ESC sequences,
/// carriage returns and bells) is shown as a Swift-style escape such as `\u{1B}`.
public enum TerminalText {
    /// `text` with every control character but line feed and tab escaped.
    ///
    /// ```swift
    /// TerminalText.safe("Luke\u{1B}[2J")  // "Luke\\u{1B}[2J"
    /// ```
    public static func safe(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isUnsafe) else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            if isUnsafe(scalar) {
                out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0A, 0x09: false
        case 0x00...0x1F, 0x7F...0x9F: true
        default: false
        }
    }
}

/// A log handler that makes every message and metadata value terminal-safe before handing it
/// on, so a warning that quotes a name from the data can't carry escape sequences.
package struct TerminalSafeLogHandler: LogHandler {
    public var base: any LogHandler

    public init(base: any LogHandler) { self.base = base }

    public func log(event: LogEvent) {
        var event = event
        event.message = "\(TerminalText.safe(event.message.description))"
        event.metadata = event.metadata?.mapValues { .string(TerminalText.safe($0.description)) }
        base.log(event: event)
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { base[metadataKey: key] }
        set { base[metadataKey: key] = newValue }
    }

    public var metadata: Logger.Metadata {
        get { base.metadata }
        set { base.metadata = newValue }
    }

    public var logLevel: Logger.Level {
        get { base.logLevel }
        set { base.logLevel = newValue }
    }
}
