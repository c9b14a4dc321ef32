// Per-type answers that take a conformance check to find, kept for the whole process. The
// runtime's scan for a type that does not conform is too slow to repeat in every encode, so
// each encode and decode asks here once per type, through a `TypeMemo`.

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

/// One encode's or decode's copy of the answers it has asked for: a few pointer compares per
/// value instead of a lock and a dictionary lookup.
final class TypeMemo<Answer> {
    private let shared: TypeAnswers<Answer>
    private let entries = UnsafeMutablePointer<(ObjectIdentifier, Answer)>.allocate(capacity: 32)
    // A pointer, not a stored `var`: a class's stored property would be checked for exclusive
    // access on every lookup.
    private let count = UnsafeMutablePointer<Int>.allocate(capacity: 1)

    init(_ shared: TypeAnswers<Answer>) {
        self.shared = shared
        count.initialize(to: 0)
    }

    deinit {
        entries.deinitialize(count: count.pointee)
        entries.deallocate()
        count.deallocate()
    }

    @inline(__always)
    func answer(for type: Any.Type) -> Answer {
        let id = ObjectIdentifier(type)
        let n = count.pointee
        for k in 0..<n where entries[k].0 == id { return entries[k].1 }
        let answer = shared.answer(for: type)
        if n < 32 {
            (entries + n).initialize(to: (id, answer))
            count.pointee = n + 1
        }
        return answer
    }
}

