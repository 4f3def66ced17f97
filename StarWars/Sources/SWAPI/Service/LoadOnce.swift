/// Runs a load the first time its value is asked for and shares the result (or the error) with
/// every caller, also those that ask while it is still running.
public actor LoadOnce<Value: Sendable> {
    private let load: @Sendable () async throws -> Value
    private var task: Task<Value, any Error>?

    public init(_ load: @escaping @Sendable () async throws -> Value) { self.load = load }

    public func value() async throws -> Value {
        if let task { return try await task.value }
        let task = Task { try await load() }
        self.task = task
        return try await task.value
    }
}
