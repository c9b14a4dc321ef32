// A model's whole plan graph compiled before a parallel decode begins. A nested model's plan is
// fetched when its first object is read (a recursive model's owner is made while its own mapping
// is compiled, so it cannot be fetched earlier), and its mapping is a `static let` that Swift
// builds once under a lock: two workers meeting a nested model first at once would have one of
// them wait, spinning, while the other builds it. `prepareGraph` reaches every model a decode of
// the root can meet (nested, optional, in arrays and dictionaries, at dotted key paths, in
// clusters) and fetches its plan on the calling thread, so that the workers only read plans.

/// A part of a compiled plan that leads to more of it: the targets, owners and nodes a decode
/// walks. Fetching a model owner's parts compiles its plan.
protocol PlanGraphPart: AnyObject {
    func planParts() throws -> [AnyObject]
}

/// Compiles the plan of `M` and of every model a decode of `M` can reach, on this thread. A model
/// whose mapping is illegal is passed over: the decode that meets it throws its error, placed.
func prepareGraph<M: JSONObjectModel>(of type: M.Type) {
    guard let owner = objectModelCodec(M.self).objectOwner else { return }
    var seen: Set<ObjectIdentifier> = []
    var pending: [AnyObject] = [owner]
    while let part = pending.popLast() {
        guard seen.insert(ObjectIdentifier(part)).inserted, let part = part as? PlanGraphPart else { continue }
        pending += (try? part.planParts()) ?? []
    }
}

extension PlanNode: PlanGraphPart {
    func planParts() throws -> [AnyObject] { entries.prefix(names.count).map { $0.target.takeUnretainedValue() } }
}

extension ForwardingTarget: PlanGraphPart {
    func planParts() throws -> [AnyObject] { [fallback] }
}

extension PathTarget: PlanGraphPart {
    func planParts() throws -> [AnyObject] { [node] }
}

extension TeeTarget: PlanGraphPart {
    func planParts() throws -> [AnyObject] { targets }
}

extension Slot: PlanGraphPart {
    func planParts() throws -> [AnyObject] { [codec.objectOwner, codec.arrayOwner].compactMap { $0 } }
}

extension ModelOwner: PlanGraphPart {
    func planParts() throws -> [AnyObject] { [try plan().takeUnretainedValue().root] }
}

extension ArrayOwner: PlanGraphPart {
    func planParts() throws -> [AnyObject] { [elementTarget, elementSlot] }
}

extension DictionaryOwner: PlanGraphPart {
    func planParts() throws -> [AnyObject] { [valueSlot] }
}

extension ClusterOwner: PlanGraphPart {
    func planParts() throws -> [AnyObject] { codec.entries.map(\.owner) }
}
