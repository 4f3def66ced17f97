import Logging

/// Text safe to print on a terminal, so data quoted in a message can't move the cursor, clear the screen or
/// retitle the window: control characters but line feed and tab (C0, DEL, C1) become escapes like `\u{1B}`.
public enum TerminalText {
    /// `text` with every control character but line feed and tab escaped.
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

/// A log handler that makes messages and metadata values terminal-safe, so data in a warning can't carry escapes.
package struct TerminalSafeLogHandler: LogHandler {
    package var base: any LogHandler

    package init(base: any LogHandler) { self.base = base }

    package func log(event: LogEvent) {
        var event = event
        event.message = "\(TerminalText.safe(event.message.description))"
        event.metadata = event.metadata?.mapValues { .string(TerminalText.safe($0.description)) }
        base.log(event: event)
    }

    package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { base[metadataKey: key] }
        set { base[metadataKey: key] = newValue }
    }

    package var metadata: Logger.Metadata {
        get { base.metadata }
        set { base.metadata = newValue }
    }

    package var logLevel: Logger.Level {
        get { base.logLevel }
        set { base.logLevel = newValue }
    }
}
