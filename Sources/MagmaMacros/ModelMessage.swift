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
    case defaultWithoutValue
    case onInvalidNotALiteral
    case onIgnored(String, String)
    case withFlatten(String, String)
    case flattenNeedsModel(String)
    case severalKeysWith(String, String)
    case encodeWithSeveralKeys(String)
    case defaultAndInitialValue(String)
    case requiredWithDefault(String)
    case lossyNotACollection(String, String)
    case encodeKeyIsTheKeyRead(String, String)
    case keyWrittenTwice(String, String, String)
    case enumWithoutTagging(String)
    case genericEnum
    case taggingNotOnEnum
    case notOnCase(String)
    case caseAttributeOnSeveral(String)
    case caseKeyNotOneTag
    case caseNameTwice(String)
    case secondFallback(String)
    case tagTwice(String, String, String)
    case unlabelledOptional(String)
    case unlabelledValues(String)
    case valueReadsTheTag(String, String)
    case fallbackNotOnCase

    var message: String {
        switch self {
        case .notAModel(let kind):
            return "@JSONModel applies to a struct, a final class or an enum, not \(kind); declare its mapping with the Map DSL "
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
        case .defaultWithoutValue:
            return "@Default needs the value, such as @Default(0) or @Default(State.open)"
        case .onInvalidNotALiteral:
            return "onInvalid: takes true or false, written as such"
        case .onIgnored(let name, let attribute):
            return "'\(name)' is ignored, so it is never decoded: remove @\(attribute)"
        case .withFlatten(let name, let attribute):
            return "'\(name)' is flattened (its model's own keys are read from this object), so @\(attribute) does not apply: remove it"
        case .flattenNeedsModel(let name):
            return "@Flatten needs '\(name)' to be a non-optional model, its type written and no initial value: it is built from "
                + "its model's keys in this object"
        case .severalKeysWith(let name, let attribute):
            return "'\(name)' reads several key paths, which its @Transform combines; @\(attribute) applies to a property read "
                + "from one key path"
        case .encodeWithSeveralKeys(let name):
            return "'\(name)' reads several key paths, each written back where it is read: remove encode:"
        case .defaultAndInitialValue(let name):
            return "'\(name)' has both an initial value and @Default: keep one (@Default's value also stands for null, "
                + "and with onInvalid: true for an invalid value)"
        case .requiredWithDefault(let name):
            return "'\(name)' has a @Default for a missing key, so it cannot be @Required"
        case .lossyNotACollection(let name, let type):
            return "@Lossy drops the bad elements of an array or a dictionary, but '\(name)' is \(type)"
        case .encodeKeyIsTheKeyRead(let name, let key):
            return "'\(name)' reads \"\(key)\" already, so encode: changes nothing: remove it"
        case .keyWrittenTwice(let key, let other, let name):
            return "'\(name)' writes \"\(key)\" back, as '\(other)' does: give one of them another key"
        case .enumWithoutTagging(let name):
            return "@JSONModel on an enum reads its cases as tagged objects: say how '\(name)' is tagged, with tagging: "
                + ".internal(key:), .external or .adjacent(tag:content:)"
        case .genericEnum:
            return "@JSONModel does not apply to a generic enum (its cases are a static of the type, which a generic type cannot have)"
        case .taggingNotOnEnum:
            return "tagging: applies to an enum, whose cases it tells apart; remove it"
        case .notOnCase(let attribute):
            return "@\(attribute) applies to a stored property, not to an enum case (a case takes @Key and @Fallback)"
        case .caseAttributeOnSeveral(let attribute):
            return "@\(attribute) applies to one case: declare the case on its own line"
        case .caseKeyNotOneTag:
            return "@Key on a case names its one tag, such as @Key(\"rect\")"
        case .caseNameTwice(let name):
            return "two cases are named '\(name)'; a tag picks one case: rename one of them"
        case .secondFallback(let earlier):
            return "'\(earlier)' is the fallback already: an enum has one fallback, remove @Fallback"
        case .tagTwice(let tag, let other, let name):
            return "'\(name)' is tagged \"\(tag)\", as '\(other)' is: give one of them another @Key"
        case .unlabelledOptional(let name):
            return "the value of '\(name)' is a model flattened into the case's object, which cannot be optional: label it "
                + "to read it from a key"
        case .unlabelledValues(let name):
            return "label the associated values of '\(name)': a case's values are read from the keys their labels give "
                + "(one unlabelled value is a model whose keys are the case's)"
        case .valueReadsTheTag(let name, let key):
            return "'\(name)' would be read from \"\(key)\", the key that holds the case's tag: rename it"
        case .fallbackNotOnCase:
            return "@Fallback applies to an enum case: the one read for an unknown or missing tag"
        }
    }

    var severity: DiagnosticSeverity {
        switch self {
        case .letWithValue, .keyReadTwice, .encodeKeyIsTheKeyRead: return .warning
        default: return .error
        }
    }

    /// The case's name: `notAModel` for `.notAModel("an enum")`.
    var diagnosticID: MessageID {
        MessageID(domain: "MagmaMacros", id: String(String(describing: self).prefix { $0 != "(" }))
    }
}

enum ModelFixIt: FixItMessage {
    case addFinal, makeVar, removeAttribute(String), removeArgument, addTagging, removeTagging

    var message: String {
        switch self {
        case .addFinal: return "make the class final"
        case .makeVar: return "make it a var"
        case .removeAttribute(let name): return "remove @\(name)"
        case .removeArgument: return "remove encode:"
        case .addTagging: return "tag cases with a \"type\" key"
        case .removeTagging: return "remove tagging:"
        }
    }

    var fixItID: MessageID {
        MessageID(domain: "MagmaMacros", id: String(String(describing: self).prefix { $0 != "(" }))
    }
}
