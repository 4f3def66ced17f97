import CCmark
import FlowSite
import Foundation
import StarWarsApp
import Synchronization

/// The benchmark's floor: the time cmark alone needs to convert every page's Markdown to HTML,
/// on as many threads as a build uses. The Markdown is made first (by walking the app as a
/// build does), then only `cmark_markdown_to_html` is timed.
package struct CmarkFloorAction: Sendable {
    package var build: BuildAction
    package var threads: Int

    package init(build: BuildAction, threads: Int = ProcessInfo.processInfo.activeProcessorCount) {
        self.build = build
        self.threads = max(1, threads)
    }

    /// Pages converted, Markdown bytes, and the seconds cmark took.
    package func run() async throws -> (pages: Int, bytes: Int, seconds: Double) {
        let builder = try await build.makeBuilder()
        let renderer = try PageRenderer(templates: builder.templates, site: builder.coordinator.siteInfo)
        let documents = Mutex<[[UInt8]]>([])
        _ = try await SiteWalker(coordinator: builder.coordinator, keepsEdges: false).walk { visit in
            let markdown = renderer.markdown(of: visit.page.document, at: visit.route.path).bytes
            documents.withLock { $0.append(markdown) }
        }
        let all = documents.withLock { $0 }
        let clock = ContinuousClock()
        let started = clock.now
        let threads = threads
        await withTaskGroup(of: Void.self) { group in
            for lane in 0..<threads {
                group.addTask {
                    for index in stride(from: lane, to: all.count, by: threads) {
                        all[index].withUnsafeBufferPointer { buffer in
                            buffer.withMemoryRebound(to: CChar.self) { chars in
                                if let html = cmark_markdown_to_html(chars.baseAddress, chars.count, CMARK_OPT_VALIDATE_UTF8) { free(html) }
                            }
                        }
                    }
                }
            }
        }
        let (seconds, attoseconds) = (clock.now - started).components
        return (all.count, all.reduce(0) { $0 + $1.count }, Double(seconds) + Double(attoseconds) / 1e18)
    }
}
