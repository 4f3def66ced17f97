import FlowSite
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The tests' HTTP client for the servers they start: a URLSession whose delegate sees every
/// response as it is (a redirect is returned, never followed) and can stream a body as it
/// arrives (the live-reload channel).
final class TestHTTP: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    struct Response: Sendable {
        let status: Int
        /// Header fields by lower-cased name.
        let headers: [String: String]
        let body: String
    }

    /// What one task is waiting for: the head (streaming) or the whole response.
    private struct Waiter {
        var head: CheckedContinuation<Response, any Error>?
        var whole: CheckedContinuation<Response, any Error>?
        var chunks: AsyncStream<Data>.Continuation?
        var response: HTTPURLResponse?
        var body = Data()
    }

    private let byTask = Locked<[Int: Waiter]>([:])
    private lazy var session = URLSession(configuration: .ephemeral, delegate: self, delegateQueue: nil)

    /// GETs `url` and reads the whole body.
    func get(_ url: String, timeout: TimeInterval = 30) async throws -> Response {
        let task = session.dataTask(with: request(url, timeout: timeout))
        return try await withCheckedThrowingContinuation { continuation in
            update(task) { $0 = Waiter(whole: continuation) }
            task.resume()
        }
    }

    /// GETs `url` and returns its head at once, the body as a stream of chunks that ends when
    /// the response does (or `stop` is called).
    func stream(
        _ url: String, accept: String, timeout: TimeInterval = 300
    ) async throws -> (head: Response, chunks: AsyncStream<Data>, stop: @Sendable () -> Void) {
        var request = request(url, timeout: timeout)
        request.setValue(accept, forHTTPHeaderField: "Accept")
        let task = session.dataTask(with: request)
        let (chunks, continuation) = AsyncStream.makeStream(of: Data.self)
        let head = try await withCheckedThrowingContinuation { head in
            update(task) { $0 = Waiter(head: head, chunks: continuation) }
            task.resume()
        }
        return (head, chunks, { task.cancel() })
    }

    func shutdown() { session.invalidateAndCancel() }

    private func request(_ url: String, timeout: TimeInterval) -> URLRequest {
        var request = URLRequest(url: URL(string: url)!)
        request.timeoutInterval = timeout
        return request
    }

    private func update(_ task: URLSessionTask, _ change: (inout Waiter) -> Void) {
        byTask.withLock { byTask in
            var waiter = byTask[task.taskIdentifier] ?? Waiter()
            change(&waiter)
            byTask[task.taskIdentifier] = waiter
        }
    }

    private func remove(_ task: URLSessionTask) -> Waiter? {
        byTask.withLock { $0.removeValue(forKey: task.taskIdentifier) }
    }

    private static func response(_ http: HTTPURLResponse?, body: Data) -> Response {
        var headers: [String: String] = [:]
        for (name, value) in http?.allHeaderFields ?? [:] { headers["\(name)".lowercased()] = "\(value)" }
        return Response(status: http?.statusCode ?? 0, headers: headers, body: String(decoding: body, as: UTF8.self))
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        var head: CheckedContinuation<Response, any Error>?
        update(dataTask) {
            $0.response = response as? HTTPURLResponse
            head = $0.head
            $0.head = nil
        }
        head?.resume(returning: Self.response(response as? HTTPURLResponse, body: Data()))
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        var chunks: AsyncStream<Data>.Continuation?
        update(dataTask) {
            chunks = $0.chunks
            if chunks == nil { $0.body.append(data) }
        }
        chunks?.yield(data)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let waiter = remove(task) else { return }
        waiter.chunks?.finish()
        if let error {
            waiter.head?.resume(throwing: error)
            waiter.whole?.resume(throwing: error)
        } else {
            let response = Self.response(waiter.response ?? task.response as? HTTPURLResponse, body: waiter.body)
            waiter.head?.resume(returning: response)
            waiter.whole?.resume(returning: response)
        }
    }
}
