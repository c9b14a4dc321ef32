// What @JSONModel and its attributes say when a declaration cannot be a model as written.
import SwiftDiagnostics

enum ModelMessage: DiagnosticMessage {
    case notAModel(String)
    case nonFinalClass
    case generic
    case ignoredWithoutDefault(String)
    case letWithValue(String)
    case severalKeysNeedTransform(String)
    case keyWithoutPath
    case keyNotALiteral
    case emptyKey
    case keyTwiceInOneProperty(String, String)
    case keyReadTwice(String, String, String)
    case onComputed(String)
    case notOnProperty(String)
    case mergeWithoutHook
    case mergeOnIgnored(String)
    case noJSONForm(String, String)
    case transformMismatch(String, String, String)

    var message: String {
        switch self {
        case .notAModel(let kind):
            return "@JSONModel applies to a struct or a final class, not \(kind); declare its mapping with the Map DSL "
                + "(a JSONModel with a JSONMapping)"
        case .nonFinalClass:
            return "@JSONModel needs a final class; a class with subclasses declares its mapping with the Map DSL "
                + "(JSONMapping(_:inheriting:))"
        case .generic:
            return "@JSONModel does not apply to a generic class yet (a generic struct is fine); declare its mapping with the Map DSL"
        case .ignoredWithoutDefault(let name):
            return "'\(name)' is ignored, so it is never decoded: give it a default value"
        case .letWithValue(let name):
            return "'\(name)' is a let with an initial value, so it is never decoded; make it a var to decode it, "
                + "or mark it @Ignore"
        case .severalKeysNeedTransform(let name):
            return "'\(name)' reads several key paths: add a @Transform that combines them "
                + "(a Transformer<[String: JSONValue], Value>)"
        case .keyWithoutPath:
            return "@Key needs a key path, such as @Key(\"user.login\")"
        case .keyNotALiteral:
            return "@Key takes string literals"
        case .emptyKey:
            return "a key path cannot be empty"
        case .keyTwiceInOneProperty(let key, let name):
            return "'\(name)' names the key \"\(key)\" twice"
        case .keyReadTwice(let key, let other, let name):
            return "'\(name)' reads \"\(key)\", as '\(other)' does; both get its value (give one of them another @Key if that is a slip)"
        case .onComputed(let attribute):
            return "@\(attribute) applies to a stored property; a computed property is neither decoded nor encoded"
        case .notOnProperty(let attribute):
            return "@\(attribute) applies to a stored property of a @JSONModel type"
        case .mergeWithoutHook:
            return "@Merge needs the hook that merges two values, such as @Merge({ (mine: Int, theirs: Int) in mine + theirs })"
        case .mergeOnIgnored(let name):
            return "'\(name)' is ignored, so merging keeps its value: remove @Merge"
        case .noJSONForm(let name, let why):
            return "'\(name)' has no JSON form (\(why)): give it a @Transform that converts it, or mark it @Ignore"
        case .transformMismatch(let name, let value, let type):
            return "@Transform gives \(value), but '\(name)' is declared '\(type)': use a transformer to \(type), "
                + "or change the property's type"
        }
    }

    var severity: DiagnosticSeverity {
        switch self {
        case .letWithValue, .keyReadTwice: return .warning
        default: return .error
        }
    }

    var diagnosticID: MessageID {
        let id: String
        switch self {
        case .notAModel: id = "notAModel"
        case .nonFinalClass: id = "nonFinalClass"
        case .generic: id = "generic"
        case .ignoredWithoutDefault: id = "ignoredWithoutDefault"
        case .letWithValue: id = "letWithValue"
        case .severalKeysNeedTransform: id = "severalKeysNeedTransform"
        case .keyWithoutPath: id = "keyWithoutPath"
        case .keyNotALiteral: id = "keyNotALiteral"
        case .emptyKey: id = "emptyKey"
        case .keyTwiceInOneProperty: id = "keyTwiceInOneProperty"
        case .keyReadTwice: id = "keyReadTwice"
        case .onComputed: id = "onComputed"
        case .notOnProperty: id = "notOnProperty"
        case .mergeWithoutHook: id = "mergeWithoutHook"
        case .mergeOnIgnored: id = "mergeOnIgnored"
        case .noJSONForm: id = "noJSONForm"
        case .transformMismatch: id = "transformMismatch"
        }
        return MessageID(domain: "MagmaMacros", id: id)
    }
}

enum ModelFixIt: FixItMessage {
    case addFinal, makeVar, removeAttribute(String)

    var message: String {
        switch self {
        case .addFinal: return "make the class final"
        case .makeVar: return "make it a var"
        case .removeAttribute(let name): return "remove @\(name)"
        }
    }

    var fixItID: MessageID {
        switch self {
        case .addFinal: return MessageID(domain: "MagmaMacros", id: "addFinal")
        case .makeVar: return MessageID(domain: "MagmaMacros", id: "makeVar")
        case .removeAttribute: return MessageID(domain: "MagmaMacros", id: "removeAttribute")
        }
    }
}
