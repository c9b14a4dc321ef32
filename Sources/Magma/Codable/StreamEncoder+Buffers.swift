// StreamEncoder+Buffers.swift — Magma
//
// What one streaming encode leaves for the next on the same MagmaEncoder, and the state an
// encode's encoders share.

import Foundation

/// The state and buffers of a streaming encode, and the array types it met: what one encode
/// leaves for the next on the same MagmaEncoder (set up afresh, they weighed on small encodes).
final class StreamBuffers {
    let state: UnsafeMutablePointer<StreamState>
    let routes = ArrayTypes()
    let formatting: JSONEncoder.OutputFormatting

    init(formatting: JSONEncoder.OutputFormatting) {
        self.formatting = formatting
        state = .allocate(capacity: 1)
        state.initialize(to: StreamState(formatting: formatting))
    }

    deinit {
        state.pointee.release()
        state.deinitialize(count: 1)
        state.deallocate()
    }
}

/// The state of one streaming encode, freed with the last encoder that refers to it.
final class StreamOutput {
    let state: UnsafeMutablePointer<StreamState>
    let settings: EncoderSettings
    let routes: ArrayTypes
    /// The owner of `state` and `routes`.
    let buffers: StreamBuffers

    init(settings: EncoderSettings, buffers: StreamBuffers) {
        self.settings = settings
        self.buffers = buffers
        state = buffers.state
        routes = buffers.routes
    }
}
