import Foundation

// Mappings outside the code (Modelmatic): a model declares its properties once, in code (Swift
// has no run-time list of a type's properties to look names up in), and a JSON file read at run
// time gives their key paths and named transformers. Every name is checked when the file is
// loaded: an unknown property, an unknown transformer, or a malformed entry is an error then, not
// at the first decode.

extension JSONMapping {
    /// A mapping loaded at run time: the declared mapping's lines, with the key paths, registered
    /// transformers and required flags a JSON mapping file gives for them.
    ///
    /// The file names properties by their Swift names (from their key paths, or ``Map/named(_:)``):
    ///
    /// ```json
    /// {
    ///   "keyNaming": "snake_case",
    ///   "properties": {
    ///     "title": "headline",
    ///     "updatedAt": { "key": "meta.updated", "transformer": "githubDate", "required": true },
    ///     "body": null
    ///   }
    /// }
    /// ```
    ///
    /// A property given a string reads that key path; an object gives `key` (default: the declared
    /// line's key), `transformer` (a name in `registry`; default: the declared line's) and
    /// `required`; `null` leaves the property unmapped; a property the file does not name keeps
    /// its declared line. `keyNaming` (`propertyName`, `snake_case`, `kebab-case`) renames the
    /// declared lines written without a key path.
    /// - Parameters:
    ///   - declared: The model's declared lines (typically `Map.properties(...)` and a `Map` per
    ///     property whose type needs a transformer).
    ///   - data: The mapping file's JSON.
    ///   - registry: Where transformer names are looked up.
    /// - Throws: ``JSONError/Code/invalidMapping`` naming the unknown property or transformer, or
    ///   the malformed entry; decoding errors if the file is not JSON.
    public convenience init(declared: JSONMapping<Model>, loading data: Data, registry: TransformerRegistry = .shared) throws {
        let file = try data.withUnsafeBytes { try JSONValueCodec.shared.decode(from: $0, options: DecodingOptions()) }
        guard case .object(let top) = file else { throw JSONError.invalidMapping("a mapping file is a JSON object") }
        for key in top.keys where key != "properties" && key != "keyNaming" {
            throw JSONError.invalidMapping("unknown member \"\(key)\" in the mapping file (expected \"properties\", \"keyNaming\")")
        }
        var naming: KeyNaming?
        switch top["keyNaming"] {
        case nil: naming = nil
        case .string("propertyName")?: naming = .propertyName
        case .string("snake_case")?: naming = .snakeCase
        case .string("kebab-case")?: naming = .kebabCase
        case let other?: throw JSONError.invalidMapping("unknown keyNaming \(other) (expected propertyName, snake_case or kebab-case)")
        }
        var entries: [String: JSONValue] = [:]
        switch top["properties"] {
        case nil: break
        case .object(let members)?: entries = members
        case let other?: throw JSONError.invalidMapping("\"properties\" is a \(other.typeName), not an object")
        }
        let known = Set(declared.maps.compactMap(\.bareName))
        if let unknown = entries.keys.sorted().first(where: { !known.contains($0) }) {
            throw JSONError.invalidMapping("the mapping file names \"\(unknown)\", which is not a declared property of \(Model.self) "
                + "(declared: \(known.sorted().joined(separator: ", ")))")
        }
        var maps: [Map<Model>] = []
        for map in declared.maps {
            guard let name = map.bareName, let entry = entries[name] else {
                maps.append(naming.map { map.resolvingKey($0) } ?? map)
                continue
            }
            var declaredKey: String?
            if !map.derivesKey, case .single(let key, _) = map.source { declaredKey = key }
            let derived = declaredKey ?? (naming ?? .propertyName).key(for: name)
            switch entry {
            case .null, .bool(false):
                continue
            case .string(let key):
                maps.append(try JSONMapping.remake(map, name, key, nil, map.required, registry))
            case .object(let fields):
                for field in fields.keys where !["key", "transformer", "required"].contains(field) {
                    throw JSONError.invalidMapping("\(name): unknown field \"\(field)\" (expected key, transformer, required)")
                }
                var key = derived, transformer: String?, required = map.required
                if let value = fields["key"] {
                    guard case .string(let s) = value else { throw JSONError.invalidMapping("\(name): \"key\" is not a string") }
                    key = s
                }
                if let value = fields["transformer"] {
                    guard case .string(let s) = value else { throw JSONError.invalidMapping("\(name): \"transformer\" is not a string") }
                    transformer = s
                }
                if let value = fields["required"] {
                    guard case .bool(let b) = value else { throw JSONError.invalidMapping("\(name): \"required\" is not a bool") }
                    required = b
                }
                maps.append(try JSONMapping.remake(map, name, key, transformer, required, registry))
            default:
                throw JSONError.invalidMapping("\(name): expected a key path, an object or null, found \(entry.typeName)")
            }
        }
        self.init(maps: maps, linesType: declared.linesType)
        try validate()
    }

    /// A mapping loaded from a mapping file; see ``init(declared:loading:registry:)``.
    /// - Parameters:
    ///   - declared: The model's declared lines.
    ///   - url: The mapping file.
    ///   - registry: Where transformer names are looked up.
    /// - Throws: ``JSONError/Code/io`` if the file cannot be read; else as the `Data` form.
    public convenience init(declared: JSONMapping<Model>, contentsOf url: URL, registry: TransformerRegistry = .shared) throws {
        try self.init(declared: declared, loading: try Data(readingFile: url), registry: registry)
    }

    private static func remake(_ map: Map<Model>, _ name: String, _ key: String, _ transformer: String?, _ required: Bool,
                               _ registry: TransformerRegistry) throws -> Map<Model> {
        guard let remake = map.remake else {
            throw JSONError.invalidMapping("\(name) is mapped from several key paths; a mapping file cannot remap it")
        }
        var made = remake(key, transformer, registry, required)
        made.property = map.property  // rerooted, for an inherited line
        made.bareName = map.bareName
        made.propertyName = map.propertyName
        made.merge = map.merge
        made.makeRelationship = map.makeRelationship
        made.encodeKey = map.encodeKey
        if let problem = made.problem { throw problem }
        return made
    }
}
