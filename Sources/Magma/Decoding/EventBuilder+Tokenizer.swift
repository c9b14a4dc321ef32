// EventBuilder+Tokenizer.swift — Magma
//
// The builder as a Tokenizer's sink: yajl's callback table for it (C function pointers cannot be
// generic, so they are written here, where the builder's type is known). Each recovers the builder
// from yajl's context pointer, a raw pointer to its storage (no retain/release per event), notes
// the token (`Tokenizer.note`: where yajl stands, for errors), and forwards to one method.

extension EventBuilder: TokenSink {
    static let tokenCallbacks = TokenCallbacks(
        null: { ctx in flag(noted(ctx, .value).pointee.null()) },
        boolean: { ctx, value in flag(noted(ctx, .value).pointee.bool(value != 0)) },
        number: { ctx, text, count in flag(noted(ctx, .value).pointee.numberToken(UnsafeRawBufferPointer(start: text, count: count))) },
        string: { ctx, text, count in flag(noted(ctx, .value).pointee.stringToken(UnsafeRawBufferPointer(start: text, count: count))) },
        startMap: { ctx in flag(noted(ctx, .open(object: true)).pointee.startObject()) },
        mapKey: { ctx, text, count in flag(noted(ctx, .key).pointee.keyToken(UnsafeRawBufferPointer(start: text, count: count))) },
        endMap: { ctx in flag(noted(ctx, .close).pointee.endObject()) },
        startArray: { ctx in flag(noted(ctx, .open(object: false)).pointee.startArray()) },
        endArray: { ctx in flag(noted(ctx, .close).pointee.endArray()) })

    /// Places an error where the builder stands: its path, and the property being read.
    mutating func placeHere(_ error: inout JSONError) {
        error.path = currentPath()
        if error.property == nil { error.property = enclosingProperty() }
    }
}

/// The builder, its position moved past the token whose callback runs.
@inline(__always)
private func noted(_ ctx: UnsafeMutableRawPointer?, _ event: TokenEvent) -> UnsafeMutablePointer<EventBuilder> {
    let builder = ctx.unsafelyUnwrapped.assumingMemoryBound(to: EventBuilder.self)
    Tokenizer<EventBuilder>.note(builder, event)
    return builder
}

@inline(__always)
private func flag(_ ok: Bool) -> Int32 { ok ? 1 : 0 }
