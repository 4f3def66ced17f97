extension Array {
    /// Grows a large array by a quarter, not double: arrays that grow with a site's pages are held to the build's
    /// memory peak, and doubled would hold up to twice what they use.
    @inlinable
    package mutating func appendGrowingByQuarters(_ element: Element) {
        if count == capacity, count >= 1 << 14 { reserveCapacity(count + count / 4) }
        append(element)
    }
}
