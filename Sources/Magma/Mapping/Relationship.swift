/// A class model's related models (placeholder, filled below).
class Relationship<Model> {
    func rebased<Base>(to base: Base.Type) -> Relationship<Base>? { nil }
}
