import ArgumentParser

/// `magma`: check, extract and generate from JSON without writing Swift first.
@main
struct MagmaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "magma",
        abstract: "Check, extract and generate from JSON, NDJSON and arrays of records with Magma.",
        discussion: """
            Records are read one at a time in bounded memory, from a file or standard input ("-"): a top-level \
            array of records, NDJSON (one record per line), or one JSON document. Long runs on a terminal show a \
            progress bar on standard error; piped or with --quiet, none.
            """,
        subcommands: [CheckCommand.self, ExtractCommand.self, GenerateCommand.self]
    )
}

/// The options every command that reads records shares.
struct InputOptions: ParsableArguments {
    @Argument(help: "The input file, or - for standard input.")
    var file: String

    @Option(help: "How records are laid out: auto, array, ndjson or document (auto: a leading [ is an array; a first line that is a whole value, NDJSON; else one document).")
    var layout: InputLayout = .auto

    @Flag(name: .shortAndLong, help: "No progress bar.")
    var quiet = false
}
