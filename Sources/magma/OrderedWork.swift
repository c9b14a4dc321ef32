import Dispatch
import Foundation

/// Runs work items on worker threads, a bounded number at once, and hands their results to the
/// calling thread in the order the items were submitted. With one job, each item runs on the
/// calling thread as it is submitted.
///
/// The window (items submitted and not yet handed back) bounds memory: `submit` waits, handing
/// back what is ready, while it is full.
final class OrderedWork<Result>: @unchecked Sendable {
    private let jobs: Int
    private let window: Int
    private let condition = NSCondition()
    private var finished: [Int: Result] = [:]
    private var submitted = 0
    private var handedBack = 0

    /// - Parameters:
    ///   - jobs: Items run at once (1: on the calling thread).
    ///   - window: Items submitted and not yet handed back, at most (at least `jobs`).
    init(jobs: Int, window: Int) {
        self.jobs = max(1, jobs)
        self.window = max(self.jobs, window)
    }

    /// Runs `work` (on a worker thread unless there is one job), first handing back to `deliver`,
    /// in order, the results that are ready, and waiting while the window is full.
    func submit(_ work: @escaping @Sendable () -> Result, deliver: (Result) throws -> Void) rethrows {
        if jobs == 1 { return try deliver(work()) }
        try handBack(whileMoreThan: window - 1, deliver)
        let sequence = submitted
        submitted += 1
        DispatchQueue.global().async { [self] in
            let result = work()
            condition.lock()
            finished[sequence] = result
            condition.broadcast()
            condition.unlock()
        }
    }

    /// Hands back every result left, in order, waiting for each.
    func finish(deliver: (Result) throws -> Void) rethrows {
        try handBack(whileMoreThan: 0, deliver)
    }

    /// Hands back the results ready in order, and waits for the next while more than `limit`
    /// items are out.
    private func handBack(whileMoreThan limit: Int, _ deliver: (Result) throws -> Void) rethrows {
        while true {
            condition.lock()
            while finished[handedBack] == nil && submitted - handedBack > limit { condition.wait() }
            guard let result = finished.removeValue(forKey: handedBack) else {
                condition.unlock()
                return
            }
            handedBack += 1
            condition.unlock()
            try deliver(result)
        }
    }
}
