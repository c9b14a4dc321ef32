// The differential harness of the two readers: the scanner (`reader: .automatic`, a whole buffer),
// yajl (`reader: .yajl`, a whole buffer), and yajl fed the input in pieces of varying sizes must
// give the same value, or the same error, for every input: into a model, into a JSONValue, and as
// NDJSON and array record streams. Public API only, compiled as FuzzHarness.swift is (into the
// Magma module by scripts/fuzz.sh with FUZZ_TARGET=readers, or through the symlink
// Tests/MagmaTests/ReaderFuzzHarness.swift to replay Fuzz/regressions-readers/).
//
// Input layout: byte 0 and byte 1 are a header, the rest is the JSON text.
//   byte 0            seeds the sizes of the pieces (1 to 64 bytes, varying piece to piece)
//   byte 1  bit  0    maxTokenLength = 64
//           bit  1    maxDepth = 8
//           bit  2    invalidSurrogateEscapes = .replace
//           bit  3    lenientTypes
// Invariants (a violation is a finding), each with a class name:
//   reader          the three readings give the same value, or errors of the same code, offset,
//                   line and column;
//   reader-detail   and the same message, path and property;
//   reader-records  the record streams give the same records and skipped errors.
// MAGMA_FUZZ_IGNORE (comma-separated class names) stops checking known classes.

import Foundation
#if !MAGMA_FUZZ
import Magma
#endif

struct ReaderFuzzCase {
    let json: [UInt8]
    let seed: UInt8
    let options: DecodingOptions

    init(_ input: [UInt8]) {
        seed = input.count > 0 ? input[0] : 0
        let h1 = input.count > 1 ? input[1] : 0
        var options = DecodingOptions()
        if h1 & 1 != 0 { options.maxTokenLength = 64 }
        if h1 & 2 != 0 { options.maxDepth = 8 }
        if h1 & 4 != 0 { options.invalidSurrogateEscapes = .replace }
        if h1 & 8 != 0 { options.lenientTypes = true }
        self.options = options
        json = Array(input.dropFirst(2))
    }

    /// The input in pieces of 1 to 64 bytes, their sizes drawn from the seed.
    var pieces: [ArraySlice<UInt8>] {
        var state = UInt32(seed) &* 2_654_435_761 &+ 1
        var pieces: [ArraySlice<UInt8>] = []
        var start = 0
        while start < json.count {
            state = state &* 1_103_515_245 &+ 12345
            let size = Int(state >> 16) % 64 + 1
            pieces.append(json[start..<min(start + size, json.count)])
            start += size
        }
        return pieces
    }

    static let ignored: Set<String> = Set(
        (ProcessInfo.processInfo.environment["MAGMA_FUZZ_IGNORE"] ?? "").split(separator: ",").map(String.init))

    /// Reads the input every way and returns the invariants it breaks (none: empty).
    func check() -> [String] {
        var yajl = options
        yajl.reader = .yajl
        let data = Data(json)
        var violations: [String] = []
        violations += compare("model",
                              read { try JSONAdapter.model(FuzzRecord.self, from: data, options: options) },
                              read { try JSONAdapter.model(FuzzRecord.self, from: data, options: yajl) },
                              read { try JSONAdapter.model(FuzzRecord.self, from: .chunks(pieces), options: options) })
        violations += compare("JSONValue",
                              read { try JSONAdapter.value(from: data, .json, options: options) },
                              read { try JSONAdapter.value(from: data, .json, options: yajl) },
                              read { try JSONAdapter.value(from: .chunks(pieces), .json, options: options) })
        for (name, layout) in [("NDJSON", RecordDecoder<FuzzStreamRecord>.Layout.ndjson), ("array", .array)] {
            let scanned = stream(layout, options, whole: true)
            let viaYajl = stream(layout, yajl, whole: true), inPieces = stream(layout, options, whole: false)
            if viaYajl != scanned { violations.append("[reader-records] \(name) yajl: \(viaYajl) / scanner \(scanned)") }
            if inPieces != scanned { violations.append("[reader-records] \(name) pieces: \(inPieces) / whole \(scanned)") }
        }
        return violations.filter { v in !ReaderFuzzCase.ignored.contains(where: { v.hasPrefix("[\($0)]") }) }
    }

    enum Reading<V: Equatable>: Equatable {
        case value(V)
        case failure(code: String, offset: Int?, line: Int?, column: Int?, detail: String)
    }

    private func read<V: Equatable>(_ body: () throws -> V) -> Reading<V> {
        do {
            return .value(try body())
        } catch let error as JSONError {
            return .failure(code: error.code.name, offset: error.offset, line: error.line, column: error.column,
                            detail: "\(error.message) at \(error.path) \(error.property ?? "-")")
        } catch {
            return .failure(code: "foreign", offset: nil, line: nil, column: nil, detail: "\(error)")
        }
    }

    private func compare<V: Equatable>(_ what: String, _ scanned: Reading<V>, _ yajl: Reading<V>, _ pieces: Reading<V>) -> [String] {
        var violations: [String] = []
        for (name, other) in [("yajl", yajl), ("pieces", pieces)] where other != scanned {
            switch (scanned, other) {
            case (.failure(let c1, let o1, let l1, let k1, let d1), .failure(let c2, let o2, let l2, let k2, let d2))
                where c1 == c2 && o1 == o2 && l1 == l2 && k1 == k2:
                violations.append("[reader-detail] \(what) \(name): \(d1) / \(d2)")
            default:
                violations.append("[reader] \(what) \(name): scanner \(scanned) / \(other)")
            }
        }
        return violations
    }

    /// A record stream's records and errors, read whole or in the input's pieces.
    private func stream(_ layout: RecordDecoder<FuzzStreamRecord>.Layout, _ options: DecodingOptions, whole: Bool) -> [String] {
        var out: [String] = []
        let decoder = RecordDecoder(FuzzStreamRecord.self, layout: layout, options: options, errorPolicy: .skip) { out.append("\($0.id)") }
        do {
            if whole { try decoder.feed(json) } else { for piece in pieces { try decoder.feed(piece) } }
            try decoder.finish()
        } catch let error as JSONError {
            out.append("error \(error.code) \(error.offset ?? -1) \(error.line ?? -1):\(error.column ?? -1) \(error.message)")
        } catch {
            out.append("foreign \(error)")
        }
        return out + decoder.skipped.map { "skipped \($0.code) \($0.offset ?? -1) \($0.recordIndex ?? -1) \($0.message)" }
    }
}
