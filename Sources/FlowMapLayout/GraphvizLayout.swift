import CGraphviz
import FlowSiteUtilities

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Lays out graphs with Graphviz's `dot` engine, called through its C library.
package enum GraphvizLayout {
    /// Points of space around the drawing on every side.
    package static let margin = 8.0

    /// Lays out with `dot`. Deterministic on every machine: built-in Helvetica metrics, not installed fonts, and
    /// coordinates rounded to 0.1 pt.
    /// - Throws: ``GraphvizError`` for an edge to a missing node, or when Graphviz or a plugin fails.
    package static func layout(_ graph: LayoutGraph) throws -> LayoutResult {
        for (index, edge) in graph.edges.enumerated() {
            guard graph.nodes.indices.contains(edge.from), graph.nodes.indices.contains(edge.to) else {
                throw GraphvizError(
                    """
                    Edge \(index) goes from node \(edge.from) to node \(edge.to), but the graph has only \
                    \(graph.nodes.count) nodes.
                    """
                )
            }
        }
        if graph.nodes.isEmpty {
            return LayoutResult(width: 2 * margin, height: 2 * margin, nodes: [], edges: [])
        }
        // Graphviz keeps global state, so only one call may run at a time.
        let builtins = try BuiltinPlugins.loaded.table.get()
        return try graphvizCalls.withLock { _ throws(GraphvizError) -> LayoutResult in
            try layOut(graph, at: nil, builtins: builtins)
        }
    }

    /// Routes edges between nodes at the given centres (SVG points, y down) with the `nop` engine: no node moves.
    /// The result keeps those coordinates; ``LayoutResult/origin`` is the drawing's top-left corner.
    /// The boxes must not touch: Graphviz draws edges between overlapping boxes straight, with a warning.
    /// - Throws: ``GraphvizError`` as ``layout(_:)`` does, or when `centres` doesn't give one point per node.
    package static func route(_ graph: LayoutGraph, at centres: [LayoutResult.Point]) throws -> LayoutResult {
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

/// The plugin table for `gvContextPlugins`: built once and kept for the process, like its `dlopen` handles.
private struct BuiltinPlugins: @unchecked Sendable {
    let table: Result<UnsafePointer<lt_symlist_t>, GraphvizError>

    static let loaded = BuiltinPlugins(
        table: Result { () throws(GraphvizError) in try GraphvizLayout.loadBuiltinPlugins() })
}

extension GraphvizLayout {
    /// Each plugin library and the symbol of its table: `dot` lays maps out, neato's `nop` routes a drawn diff.
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

    /// Loads the plugins into a NULL-terminated `lt_symlist_t` table. Only these three, so Graphviz never loads
    /// a text layout plugin such as pango and measures text with built-in metrics, the same on every machine.
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

    /// The `graphviz` folder beside the libgvc this process loaded: where its plugins are.
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
    /// Runs `dot` (or `nop` with `pinned` centres) and reads the positions back. Call with the lock held.
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

        // cgraph's Agdirected, which Swift 6 won't read (a mutable C global). Not strict: parallel edges stay.
        var directed = Agdesc_t()
        directed.directed = 1
        directed.maingraph = 1
        guard let g = withMutableCString("flow", { agopen($0, directed, nil) }) else {
            throw .callFailed("agopen")
        }
        defer { agclose(g) }

        try declareDefaults(of: g, direction: graph.direction)
        if pinned != nil {
            // Positions in points, not moved to the origin.
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
            // A distinct key per edge keeps parallel edges apart.
            guard let e = withMutableCString("e\(index)", { agedge(g, nodes[edge.from], nodes[edge.to], $0, 1) }) else {
                throw .callFailed("agedge")
            }
            if let label = edge.label, !label.isEmpty {
                try set(e, "label", escapedLabel(label), default: "")
            }
            if edge.isReturn { try set(e, "constraint", "false", default: "true") }
            edges.append(e)
        }

        let engine = pinned == nil ? "dot" : "nop"
        guard gvLayout(context, g, engine) == 0 else {
            throw .callFailed("gvLayout(\(engine))")
        }
        defer { gvFreeLayout(context, g) }

        return try readLayout(graph: g, nodes: nodes, edges: edges, inPlace: pinned != nil)
    }

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

    /// Reads the positions back, top-left origin with a margin; `inPlace`, in the centres' coordinates.
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
    /// Escapes text for a Graphviz `label` (`\N` is the node's name, `\n` a line break).
    package static func escapedLabel(_ text: String) -> String {
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

    /// To 0.1 pt, so tiny floating-point differences never show.
    private static func rounded(_ value: Double) -> Double {
        // Adding 0 turns -0.0 into 0.0.
        (value * 10).rounded() / 10 + 0
    }
}

/// Older cgraph functions take `char *` though they never change the string.
private func withMutableCString<Result>(
    _ text: String,
    _ body: (UnsafeMutablePointer<CChar>) -> Result
) -> Result {
    var bytes = Array(text.utf8CString)
    return bytes.withUnsafeMutableBufferPointer { body($0.baseAddress!) }
}
