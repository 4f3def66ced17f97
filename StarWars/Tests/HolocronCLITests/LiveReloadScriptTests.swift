import Foundation
import StarWarsTestSupport
import Testing

@testable import FlowSiteCommandLine
@testable import HolocronKit

/// The browser's half of live reload: the script runs under Node with a stand-in for the page
/// (document, location, EventSource, fetch), and the server's events drive it.
/// `make test` installs Node (Debian's `nodejs`) when it is missing.
@Suite(.enabled(if: Executables.node != nil, "needs node or nodejs on PATH (make test installs it)"))
struct LiveReloadScriptTests {
    /// A page at /deep/characters/luke/ of a site served under /deep/, as build s-1.
    static let harness = #"""
        const script = require("fs").readFileSync(process.argv[2], "utf8");
        const log = [];
        const flush = () => new Promise(resolve => setImmediate(resolve));
        function element(tag) {
          return {
            tag, style: {}, children: [], attributes: {}, textContent: "",
            setAttribute(name, value) { this.attributes[name] = value; },
            appendChild(child) { this.children.push(child); child.parent = this; },
            remove() { this.parent.children.splice(this.parent.children.indexOf(this), 1); },
            querySelector(tag) { return this.children.find(child => child.tag === tag); },
            set innerHTML(value) { log.push("innerHTML used"); }
          };
        }
        const body = element("body");
        const stylesheet = { href: "http://localhost:8000/deep/assets/style.css" };
        const pages = new Set(["/deep/", "/deep/characters/", "/deep/characters/luke/"]);
        global.window = global;
        global.document = {
          currentScript: { src: "http://localhost:8000/deep/__flowsite/live-reload.js", getAttribute: () => "s-1" },
          body, documentElement: body, createElement: element, querySelectorAll: () => [stylesheet]
        };
        Object.defineProperty(global, "location", { value: {
          pathname: "/deep/characters/luke/", origin: "http://localhost:8000",
          reload() { log.push("reload"); }, replace(path) { log.push("replace " + path); }
        }});
        const stored = {};
        global.sessionStorage = { getItem: key => stored[key] ?? null, \#
        setItem: (key, value) => { stored[key] = value; } };
        Object.defineProperty(global, "fetch", { value: path => Promise.resolve({ ok: pages.has(path) }) });
        const sources = [];
        class EventSource {
          constructor(url) { this.url = url; this.listeners = {}; this.readyState = 1; sources.push(this); }
          addEventListener(name, listener) { this.listeners[name] = listener; }
          send(name, data) { this.listeners[name]({ data: JSON.stringify(data) }); }
          close() { this.readyState = 2; }
        }
        EventSource.CLOSED = 2;
        global.EventSource = EventSource;
        const later = [];
        global.setTimeout = (callback, delay) => { later.push(delay); callback(); };
        const overlay = () => body.children.find(child => child.id === "flowsite-build-error");
        const state = {};

        (async () => {
          eval(script);
          const source = sources[0];
          state.url = source.url;
          source.send("hello", { build: "s-1", error: null });
          await flush();
          state.afterHello = log.slice();

          source.send("build-error", { build: "s-1", message: "Template <b>footer</b> failed" });
          state.overlay = overlay() && overlay().querySelector("pre").textContent;
          state.overlayTitle = overlay() && overlay().querySelector("strong").textContent;

          source.send("reload", { build: "s-2", css: true });
          await flush();
          state.stylesheet = stylesheet.href;
          state.overlayAfterCSS = overlay() !== undefined;
          state.afterCSS = log.slice();

          source.send("reload", { build: "s-3", css: false });
          await flush();
          state.afterReload = log.slice();

          pages.delete("/deep/characters/luke/");
          source.send("reload", { build: "s-4", css: false });
          await flush();
          state.afterGone = log.slice();
          source.send("reload", { build: "s-4", css: false });
          await flush();
          state.afterSameBuild = log.slice();

          pages.clear();
          source.send("reload", { build: "s-5", css: false });
          await flush();
          state.afterAllGone = log.slice();

          // The server went away and answered badly: the script connects again, and a new
          // server's hello makes the page reload.
          source.readyState = EventSource.CLOSED;
          source.onerror();
          state.sources = sources.length;
          state.retryDelays = later;
          pages.add("/deep/characters/luke/");
          sources[1].send("hello", { build: "t-1", error: "still broken" });
          await flush();
          state.afterRestart = log.slice();
          process.stdout.write(JSON.stringify(state));
        })();
        """#

    @Test func theScriptReloadsSwapsStylesheetsShowsErrorsAsTextFindsTheNearestPageAndReconnects() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("live-reload-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(LiveReload.script).write(to: folder.appendingPathComponent("live-reload.js"))
        try Data(Self.harness.utf8).write(to: folder.appendingPathComponent("harness.js"))
        let process = Process()
        process.executableURL = Executables.node
        process.arguments = [
            folder.appendingPathComponent("harness.js").path, folder.appendingPathComponent("live-reload.js").path
        ]
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(errors)")
        let state = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any], "\(errors)")

        #expect(state["url"] as? String == "http://localhost:8000/deep/__flowsite/events", "under the base path")
        #expect(state["afterHello"] as? [String] == [], "a page of the current build stays")
        #expect(state["overlay"] as? String == "Template <b>footer</b> failed", "the message as text")
        #expect(state["overlayTitle"] as? String == "Rebuild failed; still serving the previous site.")
        #expect(state["stylesheet"] as? String == "http://localhost:8000/deep/assets/style.css?flowsite-build=s-2")
        #expect(state["overlayAfterCSS"] as? Bool == false, "a good build clears the overlay")
        #expect(state["afterCSS"] as? [String] == [], "a stylesheet is swapped without a reload")
        #expect(state["afterReload"] as? [String] == ["reload"])
        #expect(
            state["afterGone"] as? [String] == ["reload", "replace /deep/characters/"], "the nearest page that exists")
        #expect(state["afterSameBuild"] as? [String] == ["reload", "replace /deep/characters/"], "one reload per build")
        #expect(
            state["afterAllGone"] as? [String] == ["reload", "replace /deep/characters/", "replace /deep/"], "else Home"
        )
        #expect(state["sources"] as? Int == 2)
        #expect(state["retryDelays"] as? [Int] == [1000])
        #expect(
            state["afterRestart"] as? [String] == ["reload", "replace /deep/characters/", "replace /deep/", "reload"])
    }
}
