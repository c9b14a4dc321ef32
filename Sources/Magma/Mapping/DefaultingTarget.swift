// `@Default(_:onInvalid: true)`: a value of the wrong type, or one its transformer refuses, leaves
// the property empty in the draft (the model's init then gives it its default) and is reported,
// instead of failing the read. A scalar's error is caught where the property's target throws it;
// a container (an object, an array) gets a recovery point of the builder's at the property's
// object for as long as it is open, so that an error anywhere inside it unwinds to the property
// and the rest of the value is read past by counting. Errors in the input's text are not the
// value's: they fail the read as before.

/// A property that keeps its default when its value is invalid.
final class DefaultingTarget: ForwardingTarget {
    private let sink: DefaultingSink

    /// - Parameter clear: Empties the property in the storage it is given (its model's).
    init(_ target: ValueTarget, clear: @escaping (UnsafeMutableRawPointer) -> Void) {
        sink = DefaultingSink(property: target.property, clear: clear)
        super.init(fallback: target)
    }

    override func string(_ bytes: UnsafeRawBufferPointer, _ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        do { try fallback.string(bytes, context, &b) } catch { recover(error, context, tokenLength: bytes.count + 2, &b) }
    }
    override func number(_ text: UnsafeRawBufferPointer, _ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        do { try fallback.number(text, context, &b) } catch { recover(error, context, tokenLength: text.count, &b) }
    }
    override func bool(_ value: Bool, _ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        do { try fallback.bool(value, context, &b) } catch { recover(error, context, tokenLength: value ? 4 : 5, &b) }
    }
    override func null(_ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        do { try fallback.null(context, &b) } catch { recover(error, context, tokenLength: 4, &b) }
    }
    override func startObject(_ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        let base = b.depth
        do { try fallback.startObject(context, &b) } catch { return recover(error, context, tokenLength: 1, &b) }
        begin(above: base, context, &b)
    }
    override func startArray(_ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        let base = b.depth
        do { try fallback.startArray(context, &b) } catch { return recover(error, context, tokenLength: 1, &b) }
        begin(above: base, context, &b)
    }

    /// The container's frame, pushed above `base`: its errors recover at `base` (the property's
    /// object) while it is open, and its end comes here.
    private func begin(above base: Int, _ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) {
        guard b.depth == base + 1 else { return }
        b.setTopStarter(self)
        b.beginRecovery(RecoveryPoint(depth: base, sink: sink, context: context))
    }

    /// The container has ended: the point goes, and what the property's own target does with
    /// the value may still fail (a transformer, a nested model's hooks), which defaults it too.
    override func deliver(_ storage: UnsafeMutableRawPointer, from owner: ContainerOwner, _ context: UnsafeMutableRawPointer,
                          _ b: inout EventBuilder) throws {
        b.endRecovery(sink)
        do { try fallback.deliver(storage, from: owner, context, &b) } catch { recover(error, context, tokenLength: 1, &b) }
    }

    /// An error of the value itself, thrown here: placed as the read would place it, then the
    /// property is emptied and the error noted.
    private func recover(_ error: any Error, _ context: UnsafeMutableRawPointer, tokenLength: Int, _ b: inout EventBuilder) {
        var e = b.placing(error, fallback, tokenLength: tokenLength)
        b.locate(&e, tokenLength: tokenLength)
        sink.defaulted(e, context, &b)
    }
}

/// Empties a property whose value was invalid, and notes it (``DecodingReport/defaulted``).
final class DefaultingSink: RecoverySink {
    let property: String?
    private let clear: (UnsafeMutableRawPointer) -> Void

    init(property: String?, clear: @escaping (UnsafeMutableRawPointer) -> Void) {
        self.property = property
        self.clear = clear
    }

    override var recoversTextErrors: Bool { false }
    override var recoversOnce: Bool { true }

    /// The point's context is the storage the property is in.
    override func recovered(_ error: JSONError, recordIndex: Int?, at point: RecoveryPoint, _ b: inout EventBuilder) throws {
        defaulted(error, point.context.unsafelyUnwrapped, &b)
    }

    func defaulted(_ error: JSONError, _ storage: UnsafeMutableRawPointer, _ b: inout EventBuilder) {
        clear(storage)
        b.report(error, property: property, defaulted: true)
    }
}

extension Map {
    /// The same line with the property left empty when its value is invalid (`@Default(_:onInvalid:
    /// true)`): a value of the wrong type, or one its transformer refuses, anywhere inside it,
    /// sets the property to nil, as if the key were absent, and is noted in the
    /// ``DecodingReport``; the draft's model then gives the property its default. An error in
    /// the input's text still fails the read. Written by `@JSONModel`'s expansion.
    /// - Parameter property: The property, as the line's key path (an optional, `nil` when empty).
    /// - Returns: The line; a line of several key paths fails to build.
    public func defaultingOnInvalid<V>(_ property: WritableKeyPath<Model, V?>) -> Map {
        var map = self
        guard case .single(let key, let makeTarget) = source else {
            map.problem = .invalidMapping("\(propertyName): a property read from several key paths cannot default on an invalid value")
            return map
        }
        let receiver = PropertyReceiver(property)
        map.source = .single(key) { DefaultingTarget(makeTarget($0), clear: { receiver.set(nil, in: $0) }) }
        map.remake = remake.map { remake in { remake($0, $1, $2, $3).defaultingOnInvalid(property) } }
        return map
    }
}
