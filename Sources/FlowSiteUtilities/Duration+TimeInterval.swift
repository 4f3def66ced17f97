extension Duration {
    /// The duration in seconds, as Foundation's `TimeInterval` counts them.
    package var timeInterval: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
