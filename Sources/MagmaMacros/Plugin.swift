import SwiftCompilerPlugin
import SwiftSyntaxMacros

@main
struct MagmaMacrosPlugin: CompilerPlugin {
    let providingMacros: [Macro.Type] = [JSONModelMacro.self, PropertyAttributeMacro.self]
}
