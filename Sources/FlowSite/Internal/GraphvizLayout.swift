import CGraphviz

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Lays out graphs with Graphviz's `dot` engine, called through its C library.
enum GraphvizLayout {
    /// Space added around the drawing on every side, in points.
    static let margin = 8.0

    /// Lays out with Graphviz's `dot` engine through the C library (not by running the `dot` program).
    ///
    /// Deterministic: the same graph gives the same result on every machine and run.
    /// Text is measured with Graphviz's built-in Helvetica metrics rather than with
    /// installed fonts, and every coordinate is rounded to 0.1 pt.
    ///
    /// - Throws: ``GraphvizError`` if an edge refers to a node that does not exist,
    ///   or if Graphviz or one of its plugins cannot be loaded or fails.
    static func layout(_ graph: LayoutGraph) throws -> LayoutResult {
        for (index, edge) in graph.edges.enumerated() {
            guard graph.nodes.indices.contains(edge.from), graph.nodes.indices.contains(edge.to) else {
                throw GraphvizError(
                    "Edge \(index) goes from node \(edge.from) to node \(edge.to), but the graph has only \(graph.nodes.count) nodes."
                )
            }
        }
        if graph.nodes.isEmpty {
            return LayoutResult(width: 2 * margin, height: 2 * margin, nodes: [], edges: [])
        }
        // Graphviz keeps global state (cgraph's string pool, error handling,
        // the layout engine's statics), so only one call may run at a time.
        let builtins = try BuiltinPlugins.loaded.table.get()
        return try graphvizCalls.withLock { _ throws(GraphvizError) -> LayoutResult in
            try layOut(graph, at: nil, builtins: builtins)
        }
    }

    /// Routes the edges of `graph` between nodes whose centres are given, in SVG coordinates
    /// (points, y down), with Graphviz's `nop` engine (what `neato -n` runs): no node moves, and
    /// each spline goes around the boxes it passes. The result is in the same coordinates, not
    /// moved to the origin; its ``LayoutResult/origin`` is the top-left corner of what was drawn.
    ///
    /// The boxes must not touch: Graphviz can't route around boxes that overlap, and draws their
    /// edges straight with a warning.
    ///
    /// - Throws: ``GraphvizError`` as ``layout(_:)`` does, or when `centres` doesn't give one
    ///   point per node.
    static func route(_ graph: LayoutGraph, at centres: [LayoutResult.Point]) throws -> LayoutResult {
        guard centres.count == graph.nodes.count else {
            throw GraphvizError("\(centres.count) positions were given for \(graph.nodes.count) nodes.")
        }
        let builtins = try BuiltinPlugins.loaded.table.get()
        return try graphvizCalls.withLock { _ throws(GraphvizError) -> LayoutResult in
            try layOut(graph, at: centres, builtins: builtins)
        }
    }
}

// MARK: - Plugins

/// Held around every call into Graphviz.
private let graphvizCalls = Locked(())

/// The plugin table handed to `gvContextPlugins`: built on first use (a global's one-time
/// initialisation) and kept for the process, like the `dlopen` handles behind it.
private struct BuiltinPlugins: @unchecked Sendable {
    let table: Result<UnsafePointer<lt_symlist_t>, GraphvizError>

    static let loaded = BuiltinPlugins(
        table: Result { () throws(GraphvizError) in try GraphvizLayout.loadBuiltinPlugins() })
}

extension GraphvizLayout {
    /// The plugin libraries we use, and the symbol each exports its plugin table under: `dot`
    /// lays maps out, neato's `nop` routes edges between boxes already placed (a drawn diff).
    private static let pluginLibraries: [(file: String, symbol: String)] = {
        #if canImport(Darwin)
        return [
            ("libgvplugin_dot_layout.6.dylib", "gvplugin_dot_layout_LTX_library"),
            ("libgvplugin_neato_layout.6.dylib", "gvplugin_neato_layout_LTX_library"),
            ("libgvplugin_core.6.dylib", "gvplugin_core_LTX_library")
        ]
        #else
        return [
            ("libgvplugin_dot_layout.so.6", "gvplugin_dot_layout_LTX_library"),
            ("libgvplugin_neato_layout.so.6", "gvplugin_neato_layout_LTX_library"),
            ("libgvplugin_core.so.6", "gvplugin_core_LTX_library")
        ]
        #endif
    }()

    /// Loads the `dot` and `neato` layout and core (render) plugins and returns a
    /// NULL-terminated `lt_symlist_t` table of them for `gvContextPlugins`.
    ///
    /// Only these three are offered to Graphviz so that it never loads a text layout
    /// plugin such as pango: without one, it measures text with built-in font
    /// metrics, which are the same on every machine, whatever fonts are installed.
    fileprivate static func loadBuiltinPlugins() throws(GraphvizError) -> UnsafePointer<lt_symlist_t> {
        let folder = try graphvizPluginFolder()
        var addresses: [UnsafeMutableRawPointer] = []
        for library in pluginLibraries {
            let path = folder + "/" + library.file
            guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL) else {
                throw .callFailed("dlopen(\(path))", detail: lastLoaderError())
            }
            guard let address = dlsym(handle, library.symbol) else {
                throw .callFailed("dlsym(\(library.symbol))", detail: lastLoaderError())
            }
            addresses.append(address)
        }
        let table = UnsafeMutablePointer<lt_symlist_t>.allocate(capacity: addresses.count + 1)
        for (index, address) in addresses.enumerated() {
            table[index] = lt_symlist_t(name: UnsafePointer(strdup(pluginLibraries[index].symbol)), address: address)
        }
        table[addresses.count] = lt_symlist_t(name: nil, address: nil)
        return UnsafePointer(table)
    }

    /// The `graphviz` folder next to the libgvc that this process actually loaded,
    /// which is where that libgvc's plugins are installed.
    private static func graphvizPluginFolder() throws(GraphvizError) -> String {
        let function: @convention(c) () -> OpaquePointer? = gvContext
        var info = cgraphviz_dl_info()
        guard cgraphviz_dladdr(unsafeBitCast(function, to: UnsafeRawPointer.self), &info) != 0,
            let fileName = info.fileName
        else {
            throw .callFailed("dladdr(gvContext)", detail: "cannot tell where libgvc was loaded from")
        }
        let libraryPath = String(cString: fileName)
        guard let slash = libraryPath.lastIndex(of: "/") else {
            throw .callFailed("dladdr(gvContext)", detail: "libgvc's path \"\(libraryPath)\" has no folder")
        }
        return libraryPath[..<slash] + "/graphviz"
    }

    private static func lastLoaderError() -> String? {
        dlerror().map { String(cString: $0) }
    }
}

// MARK: - Layout

extension GraphvizLayout {
    /// Builds the graph with cgraph, runs `dot` (or, with `pinned` centres, `nop`) and reads the
    /// positions back. Must be called with the lock held.
    private static func layOut(
        _ graph: LayoutGraph,
        at pinned: [LayoutResult.Point]?,
        builtins: UnsafePointer<lt_symlist_t>
    ) throws(GraphvizError) -> LayoutResult {
        // demand_loading 0: use only `builtins`, never read the config6a plugin list.
        guard let context = gvContextPlugins(builtins, 0) else {
            throw .callFailed("gvContextPlugins")
        }
        defer { gvFreeContext(context) }

        // The same as cgraph's Agdirected, which Swift 6 will not read because it is
        // a mutable C global. Not strict, so parallel edges stay separate.
        var directed = Agdesc_t()
        directed.directed = 1
        directed.maingraph = 1
        guard let g = withMutableCString("flow", { agopen($0, directed, nil) }) else {
            throw .callFailed("agopen")
        }
        defer { agclose(g) }

        try declareDefaults(of: g, direction: graph.direction)
        if pinned != nil {
            // Positions in points, kept where they are (not moved to the origin).
            let symbol = withMutableCString("notranslate") { name in
                withMutableCString("true") { value in agattr(g, Int32(AGRAPH), name, value) }
            }
            guard symbol != nil else { throw .callFailed("agattr(notranslate)") }
        }

        var nodes: [UnsafeMutablePointer<Agnode_t>] = []
        nodes.reserveCapacity(graph.nodes.count)
        for (index, node) in graph.nodes.enumerated() {
            guard let n = withMutableCString("n\(index)", { agnode(g, $0, 1) }) else {
                throw .callFailed("agnode")
            }
            try set(n, "label", escapedLabel(node.label), default: "\\N")
            if let centre = pinned?[index] {
                // Graphviz's y axis points up.
                try set(n, "pos", "\(centre.x),\(-centre.y)!", default: "")
            }
            nodes.append(n)
        }

        var edges: [UnsafeMutablePointer<Agedge_t>] = []
        edges.reserveCapacity(graph.edges.count)
        for (index, edge) in graph.edges.enumerated() {
            // A distinct key per edge makes cgraph create a new edge even when
            // one already joins the same two nodes.
            guard let e = withMutableCString("e\(index)", { agedge(g, nodes[edge.from], nodes[edge.to], $0, 1) }) else {
                throw .callFailed("agedge")
            }
            if let label = edge.label, !label.isEmpty {
                try set(e, "label", escapedLabel(label), default: "")
            }
            edges.append(e)
        }

        let engine = pinned == nil ? "dot" : "nop"
        guard gvLayout(context, g, engine) == 0 else {
            throw .callFailed("gvLayout(\(engine))")
        }
        defer { gvFreeLayout(context, g) }

        return try readLayout(graph: g, nodes: nodes, edges: edges, inPlace: pinned != nil)
    }

    /// Declares the graph, node and edge attributes shared by every graph.
    private static func declareDefaults(
        of g: UnsafeMutablePointer<Agraph_t>,
        direction: LayoutGraph.Direction
    ) throws(GraphvizError) {
        let graphAttributes = [
            ("rankdir", direction == .leftToRight ? "LR" : "TB"),
            ("nodesep", "0.4"),
            ("ranksep", "0.6"),
            ("splines", "true")
        ]
        let nodeAttributes = [
            ("shape", "box"),
            ("style", "rounded"),
            ("fontname", "Helvetica"),
            ("fontsize", "14"),
            // Inches of space between the label and the box, horizontally and vertically.
            ("margin", "0.15,0.08")
        ]
        let edgeAttributes = [
            ("fontname", "Helvetica"),
            ("fontsize", "11")
        ]
        for (kind, attributes) in [(AGRAPH, graphAttributes), (AGNODE, nodeAttributes), (AGEDGE, edgeAttributes)] {
            for (name, value) in attributes {
                let symbol = withMutableCString(name) { name in
                    withMutableCString(value) { value in agattr(g, Int32(kind), name, value) }
                }
                guard symbol != nil else {
                    throw .callFailed("agattr(\(name))")
                }
            }
        }
    }

    /// Reads the positions the engine left in the graph's structs and converts them to
    /// top-left-origin coordinates with a margin; `inPlace`, to the coordinates the centres
    /// were given in, with the drawing's top-left corner as the result's origin.
    private static func readLayout(
        graph g: UnsafeMutablePointer<Agraph_t>,
        nodes: [UnsafeMutablePointer<Agnode_t>],
        edges: [UnsafeMutablePointer<Agedge_t>],
        inPlace: Bool = false
    ) throws(GraphvizError) -> LayoutResult {
        var bb = (0.0, 0.0, 0.0, 0.0)
        withUnsafeMutableBytes(of: &bb) {
            cgraphviz_bounding_box(g, $0.baseAddress!.assumingMemoryBound(to: Double.self))
        }
        let (left, top) = inPlace ? (margin, -margin) : (bb.0, bb.3)
        // Graphviz's y axis points up; SVG's points down.
        func point(_ x: Double, _ y: Double) -> LayoutResult.Point {
            LayoutResult.Point(x: rounded(x - left + margin), y: rounded(top - y + margin))
        }

        var boxes: [LayoutResult.Box] = []
        boxes.reserveCapacity(nodes.count)
        for n in nodes {
            var box = (0.0, 0.0, 0.0, 0.0)
            withUnsafeMutableBytes(of: &box) {
                cgraphviz_node_box(n, $0.baseAddress!.assumingMemoryBound(to: Double.self))
            }
            let centre = point(box.0, box.1)
            boxes.append(
                LayoutResult.Box(
                    x: centre.x, y: centre.y, width: rounded(box.2 * 72), height: rounded(box.3 * 72)
                ))
        }

        var paths: [LayoutResult.EdgePath] = []
        paths.reserveCapacity(edges.count)
        var coordinates: [Double] = []
        for (index, e) in edges.enumerated() {
            // A Bézier spline: a start point, then three points per curve.
            let count = Int(cgraphviz_edge_point_count(e))
            guard count >= 4, (count - 1) % 3 == 0 else {
                throw .missingAttribute("pos", of: "edge \(index)")
            }
            coordinates = Array(repeating: 0, count: 2 * count)
            var tip = (0.0, 0.0)
            var centre = (0.0, 0.0)
            let hasTip = withUnsafeMutableBytes(of: &tip) { tip in
                cgraphviz_edge_spline(
                    e, &coordinates, Int32(count), tip.baseAddress!.assumingMemoryBound(to: Double.self)) != 0
            }
            var path = LayoutResult.EdgePath(
                points: (0..<count).map { point(coordinates[2 * $0], coordinates[2 * $0 + 1]) })
            if hasTip { path.arrowTip = point(tip.0, tip.1) }
            let hasLabel = withUnsafeMutableBytes(of: &centre) {
                cgraphviz_edge_label_centre(e, $0.baseAddress!.assumingMemoryBound(to: Double.self)) != 0
            }
            if hasLabel { path.labelCentre = point(centre.0, centre.1) }
            paths.append(path)
        }

        return LayoutResult(
            width: rounded(bb.2 - bb.0 + 2 * margin),
            height: rounded(bb.3 - bb.1 + 2 * margin),
            nodes: boxes,
            edges: paths,
            origin: inPlace ? point(bb.0 - margin, bb.3 + margin) : LayoutResult.Point(x: 0, y: 0)
        )
    }
}

// MARK: - Helpers

extension GraphvizLayout {
    /// Escapes text for a Graphviz `label`, which treats backslash sequences
    /// specially (`\N` is the node's name, `\n` a line break).
    static func escapedLabel(_ text: String) -> String {
        var escaped = ""
        var previousWasCarriageReturn = false
        for scalar in text.unicodeScalars {
            defer { previousWasCarriageReturn = scalar == "\r" }
            switch scalar {
            case "\\": escaped += "\\\\"
            case "\r": escaped += "\\n"
            case "\n" where previousWasCarriageReturn: continue
            case "\n": escaped += "\\n"
            case "\0": continue // would end the C string early
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    /// Sets an attribute on a node or edge, declaring it with `default` if needed.
    private static func set<Object>(
        _ object: UnsafeMutablePointer<Object>,
        _ name: String,
        _ value: String,
        default defaultValue: String
    ) throws(GraphvizError) {
        let status = withMutableCString(name) { name in
            withMutableCString(value) { value in
                withMutableCString(defaultValue) { defaultValue in
                    agsafeset(object, name, value, defaultValue)
                }
            }
        }
        guard status == 0 else {
            throw .callFailed("agsafeset(\(name))")
        }
    }

    /// Rounds to 0.1 pt so that tiny floating-point differences never show.
    private static func rounded(_ value: Double) -> Double {
        // Adding 0 turns -0.0 into 0.0.
        (value * 10).rounded() / 10 + 0
    }
}

/// Calls `body` with a mutable, NUL-terminated copy of `text`; older cgraph
/// functions take `char *` even though they copy the string and never change it.
private func withMutableCString<Result>(
    _ text: String,
    _ body: (UnsafeMutablePointer<CChar>) -> Result
) -> Result {
    var bytes = Array(text.utf8CString)
    return bytes.withUnsafeMutableBufferPointer { body($0.baseAddress!) }
}
