// Data+ReadingFile.swift — Magma
//
// A file read whole for decoding (a document, a mapping file), with the failure as a JSONError.

import Foundation

extension Data {
    /// The file's bytes, memory-mapped where that is safe.
    /// - Throws: ``JSONError/Code/io`` naming the file.
    init(readingFile url: URL) throws {
        do {
            try self.init(contentsOf: url, options: .mappedIfSafe)
        } catch {
            throw JSONError(.io, "cannot read \(url.path): \(error.localizedDescription)", underlying: error)
        }
    }
}
