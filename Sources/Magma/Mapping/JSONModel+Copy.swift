// Copying class models (Mantle's `-copyWithZone:`): a new instance of the model's dynamic class
// with its mapped properties set from the original, then its transitory ones by a hook. Struct
// models copy by value already.

extension JSONModel where Self: AnyObject {
    /// A new instance of this model's class with equal mapped values (every property its mapping
    /// names, the subclass's too), and the properties the mapping does not name copied by
    /// ``TransitoryCopying/copyTransitoryProperties(to:)`` where the model implements it.
    ///
    /// Values are assigned, not copied deeply: a nested class model is shared, as in Mantle.
    /// - Returns: The copy.
    public func copy() -> Self {
        let copy = Self.makeCopy(of: self)
        if let transitory = self as? any TransitoryCopying { transitory.copyTransitory(to: copy) }
        return copy
    }

    private static func makeCopy(of original: Self) -> Self {
        let copy = type(of: original).init()
        for map in type(of: original).cachedMapping.maps { assign(map.property, from: original, to: copy) }
        return copy
    }
}

/// A class model with properties its mapping does not name (Mantle's transitory properties)
/// that ``JSONModel/copy()`` should copy as well.
///
/// ```swift
/// class Vehicle: JSONModel, TransitoryCopying {
///     var cache: [String: Int] = [:]            // not mapped
///     func copyTransitoryProperties(to copy: Vehicle) { copy.cache = cache }
/// }
/// ```
/// A subclass with transitory properties of its own overrides the method and calls `super`.
public protocol TransitoryCopying: JSONModel, AnyObject {
    /// Copies the properties the mapping does not name into `copy`, a new instance of this
    /// model's class whose mapped properties are already set.
    /// - Parameter copy: The copy being made (of this model's dynamic class).
    func copyTransitoryProperties(to copy: MappingRoot)
}

extension TransitoryCopying {
    fileprivate func copyTransitory(to copy: AnyObject) { copyTransitoryProperties(to: copy as! MappingRoot) }
}

/// `target[keyPath: property] = source[keyPath: property]` for a writable key path of a class
/// (every settable class property's key path is a `ReferenceWritableKeyPath`), whatever its
/// root and value types.
private func assign(_ property: AnyKeyPath, from source: AnyObject, to target: AnyObject) {
    (property as? any AssignableKeyPath)?.assign(from: source, to: target)
}

private protocol AssignableKeyPath {
    func assign(from source: AnyObject, to target: AnyObject)
}

extension ReferenceWritableKeyPath: AssignableKeyPath {
    fileprivate func assign(from source: AnyObject, to target: AnyObject) {
        guard let from = source as? Root, let to = target as? Root else { return }
        to[keyPath: self] = from[keyPath: self]
    }
}
