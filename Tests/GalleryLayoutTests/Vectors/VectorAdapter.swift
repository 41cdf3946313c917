import Foundation

/// Turns a vector's input into a call to the library, and the result into the vector's output
/// shape. Only translation lives here; every formula is in the library.
enum VectorAdapter {
    static func output(for behaviour: String, input: JSONValue) throws -> JSONValue {
        let family = behaviour.prefix { $0 != "." }
        let name = String(behaviour.drop { $0 != "." }.dropFirst())
        switch family {
        case "SA": return try scrollingAlbum(name, input)
        case "PA": return try photosApp(name, input)
        case "CA": return try carousel(name, input)
        case "MP": return try miniPhotos(name, input)
        default: throw VectorInputError(description: "unknown behaviour \(behaviour)")
        }
    }

    static func unknown(_ name: String) -> VectorInputError {
        VectorInputError(description: "unknown behaviour \(name)")
    }
}
