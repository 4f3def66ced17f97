import FlowMapLayout
import Foundation

/// What a reader's browser draws, read back from the SVG: tests use it to check that the map and the review page
/// draw each box where the flow record says. The build never reads its own SVG.
extension FlowMapSVG {
    /// A box read back from a drawn map: its kind's escaped name and where it was drawn.
    struct DrawnBox: Equatable {
        var escapedName: String
        var box: LayoutResult.Box

        /// Where the box's centre was drawn, for readers outside the package (the layout's types are `package`).
        var centre: (x: Double, y: Double) { (box.x, box.y) }
    }

    /// The boxes of the first map on `page` in drawn order, from each `<a class="kind …">`'s `<rect>` and first
    /// `<text>`; `nil` when there is no map or a box can't be read. Centres come back within 0.05 pt (one decimal).
    static func drawnBoxes(inPage page: String) -> [DrawnBox]? {
        guard let start = page.range(of: "<svg class=\"flow-graph\""),
            let end = page.range(of: "</svg>", range: start.upperBound..<page.endIndex)
        else { return nil }
        var boxes: [DrawnBox] = []
        for chunk in page[start.upperBound..<end.lowerBound].components(separatedBy: "<a class=\"kind ").dropFirst() {
            guard let rect = chunk.range(of: "<rect "),
                let text = chunk.range(of: "<text ", range: rect.upperBound..<chunk.endIndex),
                let nameStart = chunk.range(of: ">", range: text.upperBound..<chunk.endIndex),
                let nameEnd = chunk.range(of: "</text>", range: nameStart.upperBound..<chunk.endIndex),
                let x = number("x", in: chunk[rect.lowerBound...]), let y = number("y", in: chunk[rect.lowerBound...]),
                let width = number("width", in: chunk[rect.lowerBound...]),
                let height = number("height", in: chunk[rect.lowerBound...])
            else { return nil }
            let box = LayoutResult.Box(x: x + width / 2, y: y + height / 2, width: width, height: height)
            boxes.append(DrawnBox(escapedName: String(chunk[nameStart.upperBound..<nameEnd.lowerBound]), box: box))
        }
        return boxes
    }

    /// The number in the first ` name="…"` attribute of `tag`.
    private static func number(_ name: String, in tag: Substring) -> Double? {
        guard let start = tag.range(of: " \(name)=\""), let end = tag[start.upperBound...].firstIndex(of: "\"") else {
            return nil
        }
        return Double(tag[start.upperBound..<end])
    }
}
