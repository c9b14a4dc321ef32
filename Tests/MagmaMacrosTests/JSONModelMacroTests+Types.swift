import MagmaMacros
import SwiftParser
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacrosGenericTestSupport
import Testing

/// The declared types @JSONModel judges itself: no JSON form, or a built-in transformer of
/// another type. Without these checks the compiler reports them inside the expanded draft.
extension JSONModelMacroTests {
    @Test func builtinTransformerOfAnotherType_isAnErrorAtTheAttribute() {
        expandProblem("@Transform(.url) let n: Int", DiagnosticSpec(
            message: "@Transform gives URL, but 'n' is declared 'Int': use a transformer to Int, or change the property's type", line: 3, column: 5))
        expandProblem("@Transform(.iso8601) var d: String? = nil", DiagnosticSpec(
            message: "@Transform gives Date, but 'd' is declared 'String?': use a transformer to String?, or change the property's type",
            line: 3, column: 5))
        expandProblem("@Transform(Transformer.array(.url)) let u: [String]", DiagnosticSpec(
            message: "@Transform gives [URL], but 'u' is declared '[String]': use a transformer to [String], or change the property's type",
            line: 3, column: 5))
        expandProblem("@Transform(.integer) let x: Double", DiagnosticSpec(
            message: "@Transform gives FixedWidthInteger, but 'x' is declared 'Double': use a transformer to Double, or change the property's type",
            line: 3, column: 5))
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
