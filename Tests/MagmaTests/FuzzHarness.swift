// The fuzz harness: how one fuzz input is read, the models it is decoded into, and the invariants
// checked on the result. It uses Magma's public API only: scripts/fuzz.sh compiles it into the
// Magma module itself (with -D MAGMA_FUZZ), and the test target compiles it through the symlink
// Tests/MagmaTests/FuzzHarness.swift, importing Magma, to replay Fuzz/regressions/.
//
// Input layout: byte 0 and byte 1 are a header, the rest is the JSON text.
//   byte 0  bits 0-2  chunk size: whole buffer, 1, 2, 3, 7, 64, 4096, 65536
//           bit  3    top level: one model / an array of models
//           bit  4    the array through modelsUntilError (partial results)
//           bit  5    invalidSurrogateEscapes = .replace
//           bit  6    maxTokenLength = 64
//   byte 1  bit  0    allowComments
//           bit  1    lenientTypes
//           bit  2    duplicateKeys = .reject
//           bit  3    unknownKeys = .reject
//           bit  4    nullForNonOptional = .keepDefault
//           bits 5-7  maxDepth: 512, 1, 2, 3, 8, 32, 100, 4096
// Invariants (a violation is a finding, as a crash is), each with a class name:
//   foreign-error   every error is a JSONError,
//   offset          whose offset is set and within the input;
//   chunk-outcome   the chunked decode gives the same value, or fails with the same code, as the
//                   whole buffer;
//   chunk-offset    and when both fail, at the same offset, line and column;
//   partial         modelsUntilError agrees with models;
//   depth           a JSONValue decoded is no deeper than maxDepth;
//   roundtrip       and it encodes and decodes back to itself.
// MAGMA_FUZZ_IGNORE (comma-separated class names) stops checking known classes, so a long run
// looks past a finding that is already understood.

import Foundation
#if !MAGMA_FUZZ
import Magma
#endif

@JSONModel
struct FuzzChild: Equatable {
    let name: String
    var value: Int?
    @Key("w") var weight: Double?
    var kids: [FuzzChild] = []
}

@JSONModel
struct FuzzRecord: Equatable {
    enum Kind: String { case a, b, c }
    enum Level: Int { case low = 1, high = 2 }
    struct Invalid: Error {}

    var id: Int64 = 0
    @Key("i8") var small: Int8 = 0
    @Key("u32") var count: UInt32 = 0
    var name = ""
    var nick: String?
    var score = 0.0
    var ratio: Float?
    var amount: Decimal?
    var flag = false
    var kind = Kind.a
    var level: Level?
    var kinds: [Kind] = []
    var created: Date?
    @Transform(.date(format: "yyyy-MM-dd'T'HH:mm:ss'Z'")) var stamp: Date?
    @Transform(.date(format: "EEE, dd MMM yyyy")) var day: Date?
    @Transform(.epochMilliseconds) var epoch: Date?
    var link: URL?
    var uuid: UUID?
    var blob: Data?
    var owner: FuzzChild?
    var children: [FuzzChild] = []
    var matrix: [[Int]] = []
    var tags: [String: Int] = [:]
    var meta: [String: FuzzChild]?
    var any: JSONValue = .null
    @Key("x.extra") var extra: JSONValue?
    @Key("user.login") var login: String?
    @Key("labels.0.name") var firstLabel: String?
    @Key("first", "last") @Transform(fullNameParts) var fullName = ""
    @Transform(.valueMapping([.string("one"): 1, .string("two"): 2, .null: 0], default: -1)) var mapped = 0
    @Transform(customString) var custom = ""
    @Ignore var derived = 0

    static let fullNameParts = Transformer<[String: JSONValue], String>(forward: { values in
        var parts: [String] = []
        for key in ["first", "last"] {
            guard let value = values[key] else { continue }
            guard case .string(let s) = value else { throw Invalid() }
            parts.append(s)
        }
        return parts.joined(separator: " ")
    }, reverse: { name in
        let parts = name.split(separator: " ", maxSplits: 1).map(String.init)
        var values: [String: JSONValue] = [:]
        if parts.count > 0 { values["first"] = .string(parts[0]) }
        if parts.count > 1 { values["last"] = .string(parts[1]) }
        return values
    })

    static let customString = Transformer<JSONValue, String>(forward: { value in
        guard case .string(let s) = value, s != "throw" else { throw Invalid() }
        return s
    }, reverse: { .string($0) })

    mutating func didDecode() throws {
        derived = Int(small) + children.count
        if custom == "hook" { throw Invalid() }
    }

    func validate() throws {
        if id == 13 { throw Invalid() }
    }
}

/// One fuzz input: the decoding it asks for, and the JSON.
struct FuzzCase {
    static let chunkSizes = [0, 1, 2, 3, 7, 64, 4096, 65536]
    static let depths = [512, 1, 2, 3, 8, 32, 100, 4096]

    let chunkSize: Int
    let array: Bool
    let untilError: Bool
    let options: DecodingOptions
    let json: [UInt8]

    init(_ input: [UInt8]) {
        let h0 = input.count > 0 ? input[0] : 0
        let h1 = input.count > 1 ? input[1] : 0
        chunkSize = FuzzCase.chunkSizes[Int(h0 & 7)]
        array = h0 & 8 != 0
        untilError = h0 & 16 != 0
        var options = DecodingOptions()
        options.allowComments = h1 & 1 != 0
        options.lenientTypes = h1 & 2 != 0
        if h1 & 4 != 0 { options.duplicateKeys = .reject }
        if h1 & 8 != 0 { options.unknownKeys = .reject }
        if h1 & 16 != 0 { options.nullForNonOptional = .keepDefault }
        options.maxDepth = FuzzCase.depths[Int(h1 >> 5)]
        if h0 & 32 != 0 { options.invalidSurrogateEscapes = .replace }
        if h0 & 64 != 0 { options.maxTokenLength = 64 }
        self.options = options
        json = Array(input.dropFirst(2))
    }

    /// The input in chunks of `chunkSize` (one chunk for 0).
    var chunks: [ArraySlice<UInt8>] {
        let size = chunkSize == 0 ? max(json.count, 1) : chunkSize
        return stride(from: 0, to: json.count, by: size).map { json[$0..<min($0 + size, json.count)] }
    }

    /// Invariant classes not checked (from MAGMA_FUZZ_IGNORE).
    static let ignored: Set<String> = Set(
        (ProcessInfo.processInfo.environment["MAGMA_FUZZ_IGNORE"] ?? "").split(separator: ",").map(String.init))

    /// Decodes the input every way it asks for and returns the invariants it breaks (none: empty),
    /// each as "[class] what happened".
    func check() -> [String] {
        let violations = checkAll()
        return violations.filter { v in !FuzzCase.ignored.contains(where: { v.hasPrefix("[\($0)]") }) }
    }

    private func checkAll() -> [String] {
        var violations: [String] = []
        let data = Data(json)
        let options = self.options

        // The model (or array of models): whole buffer against chunks.
        if array {
            let whole = outcome { try JSONAdapter.models(FuzzRecord.self, from: data, options: options) }
            let chunked = outcome { try JSONAdapter.models(FuzzRecord.self, from: .chunks(chunks), options: options) }
            violations += compare(whole, chunked, "models")
            if untilError {
                let partial = JSONAdapter.modelsUntilError(FuzzRecord.self, from: data, options: options)
                violations += errorViolations(partial.error, "modelsUntilError")
                if case .value(let all) = whole {
                    if partial.error != nil || partial.models != all { violations.append("[partial] modelsUntilError differs from models") }
                } else if partial.error == nil {
                    violations.append("[partial] modelsUntilError has no error where models failed")
                }
            }
        } else {
            let whole = outcome { try JSONAdapter.model(FuzzRecord.self, from: data, options: options) }
            let chunked = outcome { try JSONAdapter.model(FuzzRecord.self, from: .chunks(chunks), options: options) }
            violations += compare(whole, chunked, "model")
        }

        // Any JSON value.
        let whole = outcome { try JSONAdapter.value(from: data, .json, options: options) }
        let chunked = outcome { try JSONAdapter.value(from: .chunks(chunks), .json, options: options) }
        violations += compare(whole, chunked, "JSONValue")
        if case .value(let value) = whole {
            if FuzzCase.depth(of: value) > options.maxDepth {
                violations.append("[depth] JSONValue of depth \(FuzzCase.depth(of: value)) beyond maxDepth \(options.maxDepth)")
            }
            do {
                let encoded = try JSONAdapter.json(from: value, .json)
                var plain = DecodingOptions()
                plain.maxDepth = max(options.maxDepth, 512)
                let again = try JSONAdapter.value(from: encoded, .json, options: plain)
                if again != value { violations.append("[roundtrip] JSONValue changed by encoding and decoding again") }
            } catch {
                violations.append("[roundtrip] JSONValue round trip failed: \(error)")
            }
        }
        return violations
    }

    enum Outcome<V> {
        case value(V)
        case failure(JSONError)
        case foreign(any Error)
    }

    private func outcome<V>(_ body: () throws -> V) -> Outcome<V> {
        do { return .value(try body()) } catch let error as JSONError { return .failure(error) } catch { return .foreign(error) }
    }

    private func errorViolations(_ error: JSONError?, _ what: String) -> [String] {
        guard let error else { return [] }
        guard let offset = error.offset else { return ["[offset] \(what): error without an offset: \(error)"] }
        if offset < 0 || offset > json.count { return ["[offset] \(what): offset \(offset) outside 0...\(json.count): \(error)"] }
        return []
    }

    private func compare<V: Equatable>(_ whole: Outcome<V>, _ chunked: Outcome<V>, _ what: String) -> [String] {
        var violations: [String] = []
        for (name, o) in [("whole", whole), ("chunked \(chunkSize)", chunked)] {
            switch o {
            case .foreign(let error): violations.append("[foreign-error] \(what) \(name): not a JSONError: \(error)")
            case .failure(let error): violations += errorViolations(error, "\(what) \(name)")
            case .value: break
            }
        }
        switch (whole, chunked) {
        case (.value(let a), .value(let b)):
            if a != b { violations.append("[chunk-outcome] \(what): chunked \(chunkSize) decoded a different value") }
        case (.failure(let a), .failure(let b)):
            if a.code != b.code {
                violations.append("[chunk-outcome] \(what): chunked \(chunkSize) failed differently: whole \(a) / chunked \(b)")
            } else if a.offset != b.offset || a.line != b.line || a.column != b.column {
                violations.append("[chunk-offset] \(what): chunked \(chunkSize) failed elsewhere: whole \(a) / chunked \(b)")
            }
        case (.value, .failure(let b)):
            violations.append("[chunk-outcome] \(what): only chunked \(chunkSize) failed: \(b)")
        case (.failure(let a), .value):
            violations.append("[chunk-outcome] \(what): only the whole buffer failed: \(a)")
        default:
            break
        }
        return violations
    }

    static func depth(of value: JSONValue) -> Int {
        switch value {
        case .array(let a): 1 + (a.map(depth).max() ?? 0)
        case .object(let o): 1 + (o.values.map(depth).max() ?? 0)
        default: 0
        }
    }
}
