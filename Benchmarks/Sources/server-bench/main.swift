// A loopback Hummingbird server for `make bench-server` (scripts/bench-server.py drives wrk
// against it): three servers in one process, on three ports, each answering POST /issue by
// decoding a GitHub issue and encoding it back as the reply, with
//   foundation     JSONDecoder/JSONEncoder, Hummingbird's default coders (.iso8601 dates)
//   magma-codable  MagmaRequestDecoder/MagmaResponseEncoder, the same Codable type and strategy
//   magma-model    the same type as a @JSONModel, through JSONAdapter (decodeModel, ModelResponse)
// Built with the Server trait only (`swift build --traits Server`); without it, it says so.
//
//   server-bench body PATH         writes the request body: a generated issue of median size
//   server-bench serve PATH PORT   checks that the three decode PATH to equal issues, then serves
//                                  on PORT, PORT+1, PORT+2 until killed
#if Server
import Corpus
import Foundation
import Hummingbird
import Magma
import MagmaHummingbird

/// Coders shared by every request, for all three servers alike.
enum Coders {
    static let foundationDecoder = Dates.gitHubDecoder()
    static let foundationEncoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }()
    static let magmaDecoder: MagmaRequestDecoder = {
        let decoder = MagmaDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return MagmaRequestDecoder(decoder)
    }()
    static let magmaEncoder: MagmaResponseEncoder = {
        let encoder = MagmaEncoder()
        encoder.dateEncodingStrategy = .iso8601
        return MagmaResponseEncoder(encoder)
    }()
}

struct FoundationContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    init(source: Source) { coreContext = .init(source: source) }
    var requestDecoder: JSONDecoder { Coders.foundationDecoder }
    var responseEncoder: JSONEncoder { Coders.foundationEncoder }
}

struct MagmaContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    init(source: Source) { coreContext = .init(source: source) }
    var requestDecoder: MagmaRequestDecoder { Coders.magmaDecoder }
    var responseEncoder: MagmaResponseEncoder { Coders.magmaEncoder }
}

extension GHIssue: ResponseEncodable {}

func codableRouter<Context: RequestContext>(_ context: Context.Type) -> Router<Context> {
    let router = Router(context: Context.self)
    router.post("issue") { request, context in try await request.decode(as: GHIssue.self, context: context) }
    return router
}

func modelRouter() -> Router<MagmaContext> {
    let router = Router(context: MagmaContext.self)
    router.post("issue") { request, context in ModelResponse(try await request.decodeModel(as: GHIssue.self, context: context)) }
    return router
}

/// A generated issue of median length among the first records of the corpus.
func medianIssue() -> [UInt8] {
    let (bytes, _) = GitHubIssueCorpus().generate(targetBytes: 256 * 1024, format: .ndjson)
    let lines = bytes.split(separator: UInt8(ascii: "\n")).sorted { $0.count < $1.count }
    return Array(lines[lines.count / 2])
}

/// The three decodes of `body` give the same issue, and each reply reads back as it.
func check(_ body: [UInt8]) throws {
    let data = Data(body)
    let foundation = try Coders.foundationDecoder.decode(GHIssue.self, from: data)
    let codable = try Coders.magmaDecoder.decoder.decode(GHIssue.self, from: data)
    let model = try JSONAdapter.model(GHIssue.self, from: data)
    guard foundation == codable, foundation == model else { throw CheckFailure(message: "the three decodes differ") }
    let replies = [try Coders.foundationEncoder.encode(foundation), try Coders.magmaEncoder.encoder.encode(codable),
                   try JSONAdapter.json(from: model)]
    for reply in replies {
        if try Coders.foundationDecoder.decode(GHIssue.self, from: reply) != foundation {
            throw CheckFailure(message: "a reply does not read back as the issue")
        }
    }
}

struct CheckFailure: Error { let message: String }

let arguments = CommandLine.arguments
switch (arguments.dropFirst().first, arguments.count) {
case ("body", 3):
    let body = medianIssue()
    try Data(body).write(to: URL(fileURLWithPath: arguments[2]))
    print("request body: \(body.count) bytes, \(arguments[2])")
case ("serve", 4):
    let body = try [UInt8](Data(contentsOf: URL(fileURLWithPath: arguments[2])))
    try check(body)
    let port = Int(arguments[3])!
    func configuration(_ offset: Int) -> ApplicationConfiguration {
        .init(address: .hostname("127.0.0.1", port: port + offset), serverName: nil)
    }
    // Hummingbird's logger reads LOG_LEVEL (bench-server.py sets it to error).
    let foundation = Application(router: codableRouter(FoundationContext.self), configuration: configuration(0))
    let codable = Application(router: codableRouter(MagmaContext.self), configuration: configuration(1))
    let model = Application(router: modelRouter(), configuration: configuration(2))
    print("serving foundation on \(port), magma-codable on \(port + 1), magma-model on \(port + 2)")
    try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { try await foundation.run() }
        group.addTask { try await codable.run() }
        group.addTask { try await model.run() }
        try await group.waitForAll()
    }
default:
    print("usage: server-bench body PATH | serve PATH PORT")
    exit(2)
}
#else
print("server-bench needs the Server trait: swift build --package-path Benchmarks --traits Server --product server-bench")
#endif
