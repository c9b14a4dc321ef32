// Per-type answers that take a conformance check to find, kept for the whole process. The
// runtime's scan for a type that does not conform is too slow to repeat in every encode, so
// the per-encode and per-decode tables (`ArrayTypes`, `TypeRoutes`) ask here once per type.

/// A process-wide table from a type to what `compute` says about it.
final class TypeAnswers<Answer>: @unchecked Sendable {
    private let lock = Lock()
    private var answers: [ObjectIdentifier: Answer] = [:]
    private let compute: (Any.Type) -> Answer

    init(_ compute: @escaping (Any.Type) -> Answer) { self.compute = compute }

    func answer(for type: Any.Type) -> Answer {
        let id = ObjectIdentifier(type)
        if let known = lock.withLock({ answers[id] }) { return known }
        let made = compute(type)
        lock.withLock { answers[id] = made }
        return made
    }
}
