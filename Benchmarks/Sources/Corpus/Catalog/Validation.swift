import Foundation

/// Whether each system built the same models as JSONDecoder from the same bytes.
public struct Validation: Sendable {
    public enum Outcome: Sendable, Equatable {
        /// Equal models (JSONDecoder is the reference and is always `.same`).
        case same
        /// Decoded, but the models differ; the first difference, as a path and both values.
        case different(String)
        /// Equal but for doubles in their last digits (within 1e-13, relative: Foundation's
        /// JSONSerialization rounds some doubles so); the first such difference.
        case rounding(String)
        /// The system threw (on input every other system accepted, or on all).
        case failed(String)
        /// Not applicable (no model for this system, or it builds no models: yajl).
        case notApplicable(String)

        public var symbol: String {
            switch self {
            case .same: "✓"
            case .different: "✗ differs"
            case .rounding: "≈ last digits"
            case .failed: "✗ error"
            case .notApplicable: "–"
            }
        }

        public var detail: String? {
            switch self {
            case .same: nil
            case .different(let d), .failed(let d), .notApplicable(let d): d
            case .rounding(let d): "doubles apart in their last digits (< 1e-13 relative), as Foundation's JSONSerialization rounds them: " + d
            }
        }
    }

    /// Records in the corpus, as JSONDecoder counted them (nil if JSONDecoder failed).
    public var records: Int?
    public var outcomes: [DecodeSystem: Outcome]

    static func run<Record: CorpusRecord>(_ type: Record.Type, _ input: CorpusInput, systems: [DecodeSystem]) -> Validation {
        var outcomes: [DecodeSystem: Outcome] = [:]
        let reference: [Record]
        do {
            reference = try RecordDecoding<Record>.jsonDecoder(input)
        } catch {
            for system in systems { outcomes[system] = .failed("JSONDecoder: \(error)") }
            return Validation(records: nil, outcomes: outcomes)
        }
        for system in systems {
            switch system {
            case .jsonDecoder:
                outcomes[system] = .same
            case .yajl:
                outcomes[system] = .notApplicable("builds no models")
            case .msgspec, .orjson:
                outcomes[system] = .notApplicable("Python objects: record count compared")
            case .magmaText:
                outcomes[system] = textTwin(Record.self, input)
            case .magma, .magmaMap, .magmaYajl, .magmaDecoder, .handMapping, .jsonDecoderPattern:
                do {
                    let models = try RecordDecoding<Record>.decode(system, input)
                    if models == reference {
                        outcomes[system] = .same
                    } else if firstDifference(models, reference, path: "$", roundingTolerated: true) == nil {
                        outcomes[system] = .rounding(firstDifference(models, reference, path: "$") ?? "unequal")
                    } else {
                        outcomes[system] = .different(firstDifference(models, reference, path: "$") ?? "unequal")
                    }
                } catch let unavailable as SystemUnavailable {
                    outcomes[system] = .notApplicable(unavailable.description)
                } catch {
                    outcomes[system] = .failed(String(describing: error))
                }
            }
        }
        return Validation(records: RecordDecoding<Record>.count(reference), outcomes: outcomes)
    }
}

/// Magma's text twins against JSONDecoder's decoding the same twin type from the same bytes.
private func textTwin<Record: CorpusRecord>(_ type: Record.Type, _ input: CorpusInput) -> Validation.Outcome {
    guard let twinned = Record.self as? any TextTwinned.Type else { return .notApplicable("no text twin") }
    func compare<T: TextTwinned>(_ type: T.Type) -> Validation.Outcome { compareTexts(T.Text.self, input) }
    return compare(twinned)
}

private func compareTexts<Twin: CorpusTextTwin>(_ type: Twin.Type, _ input: CorpusInput) -> Validation.Outcome {
    do {
        let decoder = JSONDecoder()
        let reference: [Twin]
        switch input.layout {
        case .array: reference = try decoder.decode([Twin].self, from: input.data)
        case .document: reference = [try decoder.decode(Twin.self, from: input.data)]
        case .ndjson:
            var lines: [Twin] = []
            try forEachLine(in: input.data) { lines.append(try decoder.decode(Twin.self, from: input.data[$0])) }
            reference = lines
        }
        let models = try MagmaSystem.decodeText(Twin.self, input)
        return models == reference ? .same : .different(firstDifference(models, reference, path: "$") ?? "unequal")
    } catch {
        return .failed(String(describing: error))
    }
}

/// The first place two values differ, as `path: found vs expected`, found by reflection.
///
/// Only used once two values compared unequal, so it favours a readable answer over speed.
/// With `roundingTolerated`, doubles within 1e-13 of each other (relative) count as equal.
public func firstDifference(_ found: Any, _ expected: Any, path: String, roundingTolerated: Bool = false) -> String? {
    let a = Mirror(reflecting: found)
    let b = Mirror(reflecting: expected)
    func leaf() -> String? {
        if roundingTolerated, let x = found as? Double, let y = expected as? Double,
           abs(x - y) <= 1e-13 * max(abs(x), abs(y)) { return nil }
        let x = String(reflecting: found)
        let y = String(reflecting: expected)
        return x == y ? nil : "\(path): \(x.prefix(120)) vs expected \(y.prefix(120))"
    }
    if isLeaf(found) || isLeaf(expected) { return leaf() }
    switch (a.displayStyle, b.displayStyle) {
    case (.optional, .optional):
        switch (a.children.first, b.children.first) {
        case (nil, nil): return nil
        case (let x?, let y?): return firstDifference(x.value, y.value, path: path, roundingTolerated: roundingTolerated)
        default: return leaf()
        }
    case (.collection, .collection):
        let x = Array(a.children)
        let y = Array(b.children)
        for i in 0..<min(x.count, y.count) {
            if let d = firstDifference(x[i].value, y[i].value, path: "\(path)[\(i)]", roundingTolerated: roundingTolerated) { return d }
        }
        return x.count == y.count ? nil : "\(path): \(x.count) elements vs expected \(y.count)"
    case (.dictionary, .dictionary):
        func entries(_ m: Mirror) -> [String: Any] {
            var result: [String: Any] = [:]
            for child in m.children {
                let pair = Array(Mirror(reflecting: child.value).children)
                if pair.count == 2 { result[String(describing: pair[0].value)] = pair[1].value }
            }
            return result
        }
        let x = entries(a)
        let y = entries(b)
        for key in y.keys.sorted() {
            guard let value = x[key] else { return "\(path)[\"\(key)\"]: missing" }
            if let d = firstDifference(value, y[key]!, path: "\(path)[\"\(key)\"]", roundingTolerated: roundingTolerated) { return d }
        }
        return x.count == y.count ? nil : "\(path): \(x.count) entries vs expected \(y.count)"
    case (.struct, .struct), (.class, .class):
        let y = Dictionary(b.children.compactMap { c in c.label.map { ($0, c.value) } }, uniquingKeysWith: { l, _ in l })
        for child in a.children {
            guard let label = child.label, let other = y[label] else { continue }
            if let d = firstDifference(child.value, other, path: "\(path).\(label)", roundingTolerated: roundingTolerated) { return d }
        }
        return nil
    default:
        return leaf()
    }
}

private func isLeaf(_ value: Any) -> Bool {
    switch value {
    case is String, is Substring, is Bool, is Date, is URL, is Decimal, is Data, is UUID: return true
    case is any BinaryInteger, is any BinaryFloatingPoint: return true
    default: return Mirror(reflecting: value).displayStyle == .enum
    }
}
