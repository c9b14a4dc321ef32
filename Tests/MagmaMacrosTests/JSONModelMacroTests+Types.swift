import MagmaMacros
import SwiftParser
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacrosGenericTestSupport
import Testing

/// The declared types @JSONModel judges itself: no JSON form. A transformer's type is judged by
/// the compiler, through `@Transform`'s peer (ModelDiagnosticsBuildTests checks what it says).
extension JSONModelMacroTests {
    /// The peer is the transformer typed as the property: an optional's takes its wrapped type
    /// too, `T!` is `T?`, several keys take the JSON values by key path; none without a type.
    @Test func transform_isAPeerTypedAsTheProperty() {
        expand(
            """
            struct S {
                @Transform(.url) let a: URL
                @Transform(.url) var b: URL?
                @Transform(.url) var c: URL!
                @Key("x", "y") @Transform(S.both) var `default`: Int?
                @Transform(.url) var d = URL(string: "x")!
            }
            """,
            """
            struct S {
                let a: URL

                private static var _transform_a: Magma.Transformer<Magma.JSONValue, URL> {
                    .url
                }
                var b: URL?

                private static var _transform_b: Magma.Transformer<Magma.JSONValue, URL?> {
                    .optionalProperty(.url)
                }
                var c: URL!

                private static var _transform_c: Magma.Transformer<Magma.JSONValue, URL?> {
                    .optionalProperty(.url)
                }
                var `default`: Int?

                private static var _transform_default: Magma.Transformer<[Swift.String: Magma.JSONValue], Int?> {
                    S.both
                }
                var d = URL(string: "x")!
            }
            """)
    }

    @Test func typeWithNoJSONForm_isAnErrorAtTheType() {
        let advice = "give it a @Transform that converts it, or mark it @Ignore"
        expandProblem("let f: () -> Int", DiagnosticSpec(message: "'f' has no JSON form ('() -> Int' is a function type): \(advice)", line: 3, column: 12))
        expandProblem("let t: (Int, String)", DiagnosticSpec(message: "'t' has no JSON form ('(Int, String)' is a tuple): \(advice)", line: 3, column: 12))
        expandProblem("var x: Any?", DiagnosticSpec(message: "'x' has no JSON form ('Any' may hold any value): \(advice)", line: 3, column: 12))
        expandProblem("let v: Void", DiagnosticSpec(message: "'v' has no JSON form ('Void' holds no value): \(advice)", line: 3, column: 12))
        expandProblem("let e: ()", DiagnosticSpec(message: "'e' has no JSON form ('()' is Void): \(advice)", line: 3, column: 12))
        expandProblem("let m: [String: Int.Type]", DiagnosticSpec(message: "'m' has no JSON form ('Int.Type' is a metatype): \(advice)", line: 3, column: 12))
        expandProblem("var h: ((Int) async -> Void)?", DiagnosticSpec(
            message: "'h' has no JSON form ('(Int) async -> Void' is a function type): \(advice)", line: 3, column: 12))
    }

    /// Types and transformers the macro cannot judge, or that fit, are left to the compiler.
    @Test func fittingOrUnknownTypes_areNotReported() {
        let source = """
            @JSONModel
            struct S {
                @Transform(.date(format: "y")) let a: Date
                @Transform(.iso8601) var b: Foundation.Date?
                @Transform(.optional(.url)) var c: URL?
                @Transform(.integer) let d: UInt8
                @Transform(.array(.rawValue(State.self))) let e: [State]
                @Transform(.url) let f: Link
                @Transform(custom) let g: Int
                @Transform(.dictionary(.string)) let h: [String: String]
                @Transform(.epochSeconds.chained(days)) let i: Int
                @Transform(converting) let j: () -> Int
                @Ignore var k: (() -> Void)? = nil
                let l: Callback
                let m: (Int)
                @Key("p", "q") @Transform(.url) let n: Int
            }
            """
        let context = BasicMacroExpansionContext()
        _ = Parser.parse(source: source).expand(macroSpecs: macros, contextGenerator: { _ in context }, indentationWidth: .spaces(4))
        #expect(context.diagnostics.map(\.message) == [])
    }
}
