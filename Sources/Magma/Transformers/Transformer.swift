// The transformer layer (rank 4 in ARCHITECTURE.md): the public Transformer and the built-in
// codecs behind it. A built-in transformer is a Codec<V> (ScalarCodecs, URLCodec, the date
// codecs), which is the one place a type's fast paths live: the tokens it reads, the in-place
// field and element targets, the value writer. A transformer made from closures wraps a
// ClosureCodec and sees JSONValues. Nothing here knows about models: `Transformer.model(_:)`
// is in Mapping/.

/// A reversible, throwing value transformer: `Input` to `Output` and back.
///
/// Mappings take transformers from ``JSONValue`` to a property's type. The built-in ones
/// (`.url`, `.iso8601`, `.date(format:)`, `.rawValue(_:)`...) read the JSON token's bytes directly;
/// ones made from closures receive the value as a ``JSONValue``. Transformers compose:
///
/// ```swift
/// let cents = Transformer<Double, Int>(forward: { Int(($0 * 100).rounded()) }, reverse: { Double($0) / 100 })
/// Map(\.priceInCents, "price", Transformer.double.chained(cents))
/// ```
public struct Transformer<Input, Output>: @unchecked Sendable {
    private let forwardBody: (Input) throws -> Output
    private let reverseBody: ((Output) throws -> Input)?
    /// The fast path when `Input` is JSONValue: a `Codec<Output>` reading tokens directly.
    private let fastCodec: AnyObject?

    /// Creates a transformer from closures.
    /// - Parameters:
    ///   - forward: Input to output; throw to reject an input.
    ///   - reverse: Output back to input, or nil for a one-way transformer (a model property
    ///     using one cannot be encoded: encoding it fails with ``JSONError/Code/notEncodable``).
    public init(forward: @escaping (Input) throws -> Output, reverse: ((Output) throws -> Input)? = nil) {
        forwardBody = forward
        reverseBody = reverse
        fastCodec = nil
    }

    init(codec: Codec<Output>) where Input == JSONValue {
        forwardBody = { try codec.decode(from: $0) }
        reverseBody = codec.isReversible ? { try codec.encode($0) } : nil
        fastCodec = codec
    }

    /// Transforms an input.
    /// - Parameter input: The value to transform.
    /// - Returns: The transformed value.
    /// - Throws: Whatever the forward transformation throws.
    public func transform(_ input: Input) throws -> Output { try forwardBody(input) }

    /// Transforms an output back.
    /// - Parameter output: The value to transform back.
    /// - Returns: The input it came from.
    /// - Throws: ``JSONError/Code/notEncodable`` if the transformer is one-way, or whatever the
    ///   reverse transformation throws.
    public func reverseTransform(_ output: Output) throws -> Input {
        guard let reverseBody else { throw JSONError(.notEncodable, "the transformer to \(Output.self) is not reversible") }
        return try reverseBody(output)
    }

    /// Whether ``reverseTransform(_:)`` can succeed.
    public var isReversible: Bool { reverseBody != nil }

    /// The same transformer, backwards. A one-way transformer inverts into one whose forward
    /// direction always throws ``JSONError/Code/notEncodable``.
    public var inverted: Transformer<Output, Input> {
        let forward = forwardBody, reverse = reverseBody
        return Transformer<Output, Input>(
            forward: { output in
                guard let reverse else { throw JSONError(.notEncodable, "the transformer to \(Output.self) is not reversible") }
                return try reverse(output)
            },
            reverse: forward)
    }

    /// This transformer followed by `next`; the reverse runs `next` backwards first.
    /// - Parameter next: The transformer applied to this one's output.
    /// - Returns: A transformer from this one's input to `next`'s output.
    public func chained<Next>(_ next: Transformer<Output, Next>) -> Transformer<Input, Next> {
        if let codec = fastCodec as? Codec<Output> {
            let mapped = MappedCodec(codec, forward: next.forwardBody, reverse: next.reverseBody)
            let reverse: ((Next) throws -> Input)? = mapped.isReversible ? { try mapped.encode($0) as! Input } : nil
            return Transformer<Input, Next>(forward: { try mapped.decode(from: $0 as! JSONValue) }, reverse: reverse,
                                           fastCodec: mapped)
        }
        let first = forwardBody, firstReverse = reverseBody
        let second = next.forwardBody, secondReverse = next.reverseBody
        var reverse: ((Next) throws -> Input)? = nil
        if let firstReverse, let secondReverse { reverse = { try firstReverse(try secondReverse($0)) } }
        return Transformer<Input, Next>(forward: { try second(try first($0)) }, reverse: reverse)
    }

    private init(forward: @escaping (Input) throws -> Output, reverse: ((Output) throws -> Input)?, fastCodec: AnyObject?) {
        forwardBody = forward
        reverseBody = reverse
        self.fastCodec = fastCodec
    }
}

extension Transformer where Input == JSONValue {
    /// The codec that reads this transformer's values from tokens.
    var codec: Codec<Output> {
        if let codec = fastCodec as? Codec<Output> { return codec }
        let forward = forwardBody, reverse = reverseBody
        return ClosureCodec(forward: forward, reverse: reverse)
    }
}

/// Transformers registered by name, for mappings that name theirs (Mantle's named value
/// transformers, and mappings loaded at run time).
public final class TransformerRegistry: @unchecked Sendable {
    /// The process-wide registry.
    public static let shared = TransformerRegistry()
    private var transformers: [String: Any] = [:]
    private let lock = Lock()

    /// Creates an empty registry.
    public init() {}

    /// Registers `transformer` under `name`, replacing any earlier one of that name.
    /// - Parameters:
    ///   - transformer: The transformer.
    ///   - name: Its name.
    public func register<V>(_ transformer: Transformer<JSONValue, V>, named name: String) {
        lock.withLock { transformers[name] = transformer }
    }

    /// The transformer registered under `name` for values of type `V`.
    /// - Parameters:
    ///   - name: The name it was registered under.
    ///   - type: The value type it must produce.
    /// - Returns: The transformer, or nil if there is none of that name and type.
    public func transformer<V>(named name: String, for type: V.Type = V.self) -> Transformer<JSONValue, V>? {
        lock.withLock { transformers[name] as? Transformer<JSONValue, V> }
    }
}
