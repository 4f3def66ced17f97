/// How far a build is: its phase, the pages made and the routes discovered so far.
public struct BuildProgress: Sendable, Hashable {
    /// `pages` while the walk makes pages, then `steps`, `links` and `swap`.
    public var phase: String
    /// The pages made so far.
    public var made: Int
    /// Never fewer than `made`; it grows while the walk finds routes.
    public var discovered: Int

    /// Where a build is: in `phase`, with `made` pages made of `discovered` routes found.
    public init(phase: String, made: Int, discovered: Int) {
        self.phase = phase
        self.made = made
        self.discovered = discovered
    }
}
