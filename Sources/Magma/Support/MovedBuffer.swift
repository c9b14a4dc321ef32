// Growing the raw buffers that hot structures keep (a frame stack, a tape), one way everywhere.

extension UnsafeMutablePointer {
    /// A buffer of `capacity` elements whose first `count` are this one's, moved; this one is freed.
    func moved(count: Int, toCapacity capacity: Int) -> UnsafeMutablePointer {
        let bigger = UnsafeMutablePointer.allocate(capacity: capacity)
        bigger.moveInitialize(from: self, count: count)
        deallocate()
        return bigger
    }
}
