import ArgumentParser
import Foundation
import Magma

/// `magma generate`: Swift models and their mappings from sample JSON.
struct GenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Write Swift models for the records of sample JSON or NDJSON files.",
        discussion: """
            The samples' records (a top-level array's elements, NDJSON's lines, or one document) are merged: \
            nested objects become models of their own, arrays of objects arrays of models merged over all \
            elements; a member missing or null in some record is optional, one present in every record required. \
            Objects whose keys are data, not names, become dictionaries ([String: Model]): keys that are all \
            numbers, or 16 keys or more whose values have one shape (--dictionary and --struct force either \
            choice). Two objects of one shape (the same keys, of the same types) share one model. Integers that \
            fit become Int, other numbers Double; ISO 8601 date-times (with fractional seconds or an offset too) \
            Date, and absolute URLs URL (when they re-encode to the same text); values of several kinds \
            JSONValue. snake_case keys become camelCase properties.

            --style macro (the default) writes @JSONModel structs with let properties, @Key only where the \
            model's key naming cannot derive the key; --style map writes JSONModel structs with var \
            properties, defaults and a static jsonMapping of Map lines.
            """
    )

    @Argument(help: "Sample files (JSON, an array of records, or NDJSON); - for standard input.")
    var samples: [String]

    @Option(help: "The name of the record model.")
    var name = "Record"

    @Option(help: "macro (@JSONModel) or map (JSONModel with a Map mapping).")
    var style: ModelStyleArgument = .macro

    @Option(name: .shortAndLong, help: "Write the source to this file instead of standard output.")
    var output: String?

    @Option(help: ArgumentHelp("Make the object at this key path a dictionary, [String: Model] (a key path of the records' members, arrays left out, a dictionary's values *: plugins, data.items.*.meta).", valueName: "key.path"))
    var dictionary: [String] = []

    @Option(name: .customLong("struct"), help: ArgumentHelp("Make the object at this key path a model of its own, whatever its keys.", valueName: "key.path"))
    var structs: [String] = []

    func run() throws {
        let root = Shape()
        for sample in samples {
            let data = sample == "-" ? FileHandle.standardInput.readDataToEndOfFile()
                : try Data(contentsOf: URL(fileURLWithPath: sample))
            for record in try Samples.records(in: data, name: sample) { root.add(record) }
        }
        guard root.object != nil else { throw ValidationError("the samples hold no JSON object") }
        var writer = ModelWriter(style: style.style)
        writer.dictionaries = Set(dictionary)
        writer.structs = Set(structs)
        let source = writer.source(for: root, name: name)
        if let output {
            try Data(source.utf8).write(to: URL(fileURLWithPath: output))
        } else {
            var out = Output()
            out.append(source)
            try out.flush()
        }
    }
}

/// `--style`.
enum ModelStyleArgument: String, ExpressibleByArgument, CaseIterable {
    case macro, map
    var style: ModelStyle { self == .macro ? .macro : .map }
}
