// yajl with no-op callbacks: the ceiling of this design, for the benchmarks.
private import CYajl

/// yajl with callbacks that do nothing: the ceiling of this design, for the benchmarks.
@_spi(Benchmarks)
public enum YajlBaseline {
    /// Tokenizes `bytes` with no-op callbacks.
    /// - Parameter bytes: The JSON text.
    /// - Returns: The number of events yajl produced.
    /// - Throws: `JSONError` with code `.syntax` if the input is not JSON.
    @discardableResult
    public static func scan(_ bytes: UnsafeRawBufferPointer) throws -> Int {
        var count = 0
        let handle = yajl_alloc(noop, nil, &count)
        defer { yajl_free(handle) }
        if let base = bytes.baseAddress, yajl_parse(handle, base.assumingMemoryBound(to: UInt8.self), bytes.count) != yajl_status_ok {
            throw JSONError(.syntax, "invalid JSON")
        }
        if yajl_complete_parse(handle) != yajl_status_ok { throw JSONError(.syntax, "invalid JSON") }
        return count
    }

    nonisolated(unsafe) private static let noop: UnsafeMutablePointer<yajl_callbacks> = {
        let table = UnsafeMutablePointer<yajl_callbacks>.allocate(capacity: 1)
        table.initialize(to: yajl_callbacks(
            yajl_null: { count($0) }, yajl_boolean: { c, _ in count(c) }, yajl_integer: nil, yajl_double: nil,
            yajl_number: { c, _, _ in count(c) }, yajl_string: { c, _, _ in count(c) },
            yajl_start_map: { count($0) }, yajl_map_key: { c, _, _ in count(c) }, yajl_end_map: { count($0) },
            yajl_start_array: { count($0) }, yajl_end_array: { count($0) }))
        return table
    }()
}

@inline(__always)
private func count(_ ctx: UnsafeMutableRawPointer?) -> Int32 {
    ctx.unsafelyUnwrapped.assumingMemoryBound(to: Int.self).pointee &+= 1
    return 1
}
