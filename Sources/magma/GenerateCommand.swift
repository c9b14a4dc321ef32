import ArgumentParser
import Foundation
import Magma

/// `magma generate`: Swift models and their mappings from sample JSON.
struct GenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "generate", abstract: "Generate Swift models from sample JSON.")
    func run() throws {}
}
