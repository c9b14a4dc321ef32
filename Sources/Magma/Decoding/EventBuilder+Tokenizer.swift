// EventBuilder+Tokenizer.swift — Magma
//
// The builder as a Tokenizer's sink: yajl's callback table for it (C function pointers cannot be
// generic, so they are written here, where the builder's type is known). Each recovers the builder
// from yajl's context pointer, a raw pointer to its storage (no retain/release per event), and
// forwards to one method; keys and container starts go through the Tokenizer's skip past yajl.

extension EventBuilder: TokenSink {
    static let tokenCallbacks = TokenCallbacks(
        null: { ctx in flag(builder(ctx).pointee.null()) },
        boolean: { ctx, value in flag(builder(ctx).pointee.bool(value != 0)) },
        number: { ctx, text, count in flag(builder(ctx).pointee.numberToken(UnsafeRawBufferPointer(start: text, count: count))) },
        string: { ctx, text, count in flag(builder(ctx).pointee.stringToken(UnsafeRawBufferPointer(start: text, count: count))) },
        startMap: { ctx in Tokenizer<EventBuilder>.startContainer(builder(ctx), object: true) },
        mapKey: { ctx, text, count in Tokenizer<EventBuilder>.mapKey(builder(ctx), UnsafeRawBufferPointer(start: text, count: count)) },
        endMap: { ctx in flag(builder(ctx).pointee.endObject()) },
        startArray: { ctx in Tokenizer<EventBuilder>.startContainer(builder(ctx), object: false) },
        endArray: { ctx in flag(builder(ctx).pointee.endArray()) })
}

@inline(__always)
private func builder(_ ctx: UnsafeMutableRawPointer?) -> UnsafeMutablePointer<EventBuilder> {
    ctx.unsafelyUnwrapped.assumingMemoryBound(to: EventBuilder.self)
}

@inline(__always)
private func flag(_ ok: Bool) -> Int32 { ok ? 1 : 0 }
