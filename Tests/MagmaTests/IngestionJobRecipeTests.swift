import Foundation
import Synchronization
import Magma
import Testing

/// The article "An ingestion job" holds the code of IngestionJobRecipe.swift, and that code runs.
@Suite struct IngestionJobRecipeTests {
    static let article = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Sources/Magma/Magma.docc/IngestionJob.md")
    static let recipe = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("IngestionJobRecipe.swift")

    /// The blocks between `// recipe: name` and `// end` in the recipe file.
    static func recipeBlocks() throws -> [(name: String, code: String)] {
        var blocks: [(String, String)] = []
        var current: (name: String, lines: [String])?
        for line in try String(contentsOf: recipe, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("// recipe: ") {
                current = (String(line.dropFirst("// recipe: ".count)), [])
            } else if line == "// end", let block = current {
                blocks.append((block.name, block.lines.joined(separator: "\n")))
                current = nil
            } else {
                current?.lines.append(String(line))
            }
        }
        return blocks
    }

    @Test func article_holdsEveryBlockOfTheRecipe() throws {
        let article = try String(contentsOf: Self.article, encoding: .utf8)
        let blocks = try Self.recipeBlocks()
        #expect(blocks.map(\.name) == ["models", "input", "job"])
        for block in blocks {
            #expect(article.contains("```swift\n" + block.code + "\n```"), "the article lacks the recipe's block \(block.name)")
        }
    }

    static let input = Data("""
        {"number": 1, "state": "open", "labels": [{"name": "bug"}, {"name": "ui"}]}
        {"number": 2, "state": "closed", "labels": [{"name": "bug"}]}
        {"number": 3, "state": "open", "labels": "bug"}
        {"number": 4, "state": "open", "labels": []
        {"number": 5, "state": "open", "labels": []}

        """.utf8)

    final class Lines: Sendable { let value = Mutex<[String]>([]) }

    func check(_ tally: Tally, _ lines: Lines) {
        #expect(tally.states == ["open": 2, "closed": 1])
        #expect(tally.labels == ["bug": 2, "ui": 1])
        #expect(tally.skipped.map(\.line) == [3, 4])
        let printed = lines.value.withLock { $0 }
        #expect(printed.contains { $0.hasPrefix("3 issues, 2 skipped") })
        #expect(printed.contains { $0.hasPrefix("skipped line 3: typeMismatch") })
        #expect(printed.contains { $0.hasPrefix("skipped line 4: unexpectedEnd") })
    }

    @Test func job_fromAPath() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("issues-\(UUID()).ndjson")
        try Self.input.write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let lines = Lines()
        let tally = try ingest(openInput(["job", url.path]), every: 0.01) { line in lines.value.withLock { $0.append(line) } }
        check(tally, lines)
    }

    @Test func job_fromStandardInput() throws {
        #expect(try openInput(["job"]).fileDescriptor == FileHandle.standardInput.fileDescriptor)
        #expect(try openInput(["job", "-"]).fileDescriptor == FileHandle.standardInput.fileDescriptor)
        // Standard input is a pipe when the job runs as `cat issues.ndjson | job`: so is this one.
        let pipe = Pipe()
        let writer = pipe.fileHandleForWriting
        Thread {
            writer.write(Self.input)
            try? writer.close()
        }.start()
        let lines = Lines()
        let tally = try ingest(pipe.fileHandleForReading, every: 0.01) { line in lines.value.withLock { $0.append(line) } }
        check(tally, lines)
    }

    /// The article's manifest, in a package beside a checkout of Magma whose folder is not called
    /// `Magma` (as a clone into `magma-main` is): SwiftPM resolves the product it names.
    @Test func article_manifest_worksWhateverTheCheckoutFolderIsCalled() throws {
        let article = try String(contentsOf: Self.article, encoding: .utf8)
        let start = try #require(article.range(of: "```swift\n// swift-tools-version"))
        let end = try #require(article.range(of: "\n```", range: start.upperBound..<article.endIndex))
        let manifest = String(article[article.index(start.lowerBound, offsetBy: "```swift\n".count)..<end.lowerBound])
        #expect(manifest.contains("path: \"../Magma\""))
        let getStarted = try String(contentsOf: Self.article.deletingLastPathComponent().appendingPathComponent("GettingStarted.md"),
                                    encoding: .utf8)
        #expect(getStarted.contains(".package(name: \"Magma\", path: \"../Magma\")"), "Getting Started names the package as the recipe does")

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("manifest-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let app = folder.appendingPathComponent("app")
        try FileManager.default.createDirectory(at: app.appendingPathComponent("Sources/ingest-issues"), withIntermediateDirectories: true)
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardizedFileURL
        try FileManager.default.createSymbolicLink(at: folder.appendingPathComponent("magma-main"), withDestinationURL: root)
        try manifest.replacingOccurrences(of: "../Magma", with: "../magma-main")
            .write(to: app.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        try "import Magma\n".write(to: app.appendingPathComponent("Sources/ingest-issues/main.swift"), atomically: true, encoding: .utf8)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swift", "package", "describe"]
        process.currentDirectoryURL = app
        let output = folder.appendingPathComponent("out")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = process.standardOutput
        try process.run()
        process.waitUntilExit()
        let text = try String(contentsOf: output, encoding: .utf8)
        #expect(process.terminationStatus == 0, "swift package describe: \(text)")
    }
}
