import Foundation

/// Runs the built `magma` executable (beside the test bundle in the build folder).
struct CommandRun {
    var status: Int32
    var stdout: String
    var stderr: String
}

enum MagmaTool {
    /// The `magma` binary `swift build` put beside this test bundle.
    static var executable: URL {
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var folder = bundle.deletingLastPathComponent()
        while !folder.path.hasSuffix("/debug") && !folder.path.hasSuffix("/release") && folder.path != "/" {
            folder = folder.deletingLastPathComponent()
        }
        return folder.appendingPathComponent("magma")
    }

    /// Runs `magma arguments`, feeding `input` to its standard input; its outputs go through files
    /// (no pipe to fill).
    static func run(_ arguments: [String], input: String? = nil, environment: [String: String] = [:],
                    inputThroughPipe: Bool = false) throws -> CommandRun {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("magma-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("out"), err = folder.appendingPathComponent("err"), inp = folder.appendingPathComponent("in")
        try Data((input ?? "").utf8).write(to: inp)
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env["MAGMA_PROGRESS"] = nil
        env.merge(environment) { $1 }
        process.environment = env
        process.standardInput = inputThroughPipe ? Pipe.feeding(Data((input ?? "").utf8)) : try FileHandle(forReadingFrom: inp)
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        try process.run()
        process.waitUntilExit()
        return CommandRun(status: process.terminationStatus, stdout: try String(contentsOf: out, encoding: .utf8),
                          stderr: try String(contentsOf: err, encoding: .utf8))
    }

    /// A file in a fresh temporary folder holding `text`. The folders are all in one, which goes
    /// when the test process exits (a test may hand the path to a command it starts).
    static func file(_ text: String, name: String = "input.json") throws -> String {
        let folder = filesFolder.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    private static let filesFolder: URL = {
        atexit { try? FileManager.default.removeItem(at: MagmaTool.filesFolder) }
        return FileManager.default.temporaryDirectory.appendingPathComponent("magma-files-\(getpid())")
    }()
}
