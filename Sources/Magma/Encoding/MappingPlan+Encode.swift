/// Encoding a model through its plan as a JSONValue (the reverse transformers run per property;
/// dotted key paths rebuild nested objects).
extension MappingPlan {
    func encode(_ model: Any) throws -> JSONValue {
        var root: [String: JSONValue] = [:]
        for (paths, encode) in encoders {
            let value = try encode(model)
            if paths.count == 1 {
                MappingPlan.set(value, at: paths[0][...], in: &root)
            } else if case .object(let parts) = value {
                for path in paths {
                    let key = path.map { $0.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: ".", with: "\\.") }
                        .joined(separator: ".")
                    if let part = parts[key] { MappingPlan.set(part, at: path[...], in: &root) }
                }
            }
        }
        return .object(root)
    }

    private static func set(_ value: JSONValue, at path: ArraySlice<String>, in object: inout [String: JSONValue]) {
        let key = path.first!
        if path.count == 1 {
            object[key] = value
            return
        }
        var child: [String: JSONValue] = [:]
        if case .object(let existing)? = object[key] { child = existing }
        set(value, at: path.dropFirst(), in: &child)
        object[key] = .object(child)
    }
}

import Foundation
