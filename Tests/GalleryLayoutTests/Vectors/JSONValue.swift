import Foundation

/// A decoded JSON value; numbers are compared as reals within a tolerance.
enum JSONValue: Sendable, Equatable, Decodable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }
}

/// A vector input that does not have the expected shape.
struct VectorInputError: Error, CustomStringConvertible {
    var description: String
}

extension JSONValue {
    func field(_ key: String) throws -> JSONValue {
        guard case .object(let fields) = self, let value = fields[key] else {
            throw VectorInputError(description: "missing field \"\(key)\"")
        }
        return value
    }

    func has(_ key: String) -> Bool {
        guard case .object(let fields) = self, let value = fields[key] else { return false }
        return value != .null
    }

    var asReal: CGFloat {
        get throws {
            guard case .number(let value) = self else { throw VectorInputError(description: "not a number: \(self)") }
            return CGFloat(value)
        }
    }

    var asInt: Int {
        get throws {
            guard case .number(let value) = self, let int = Int(exactly: value) else {
                throw VectorInputError(description: "not an integer: \(self)")
            }
            return int
        }
    }

    var asString: String {
        get throws {
            guard case .string(let value) = self else { throw VectorInputError(description: "not a string: \(self)") }
            return value
        }
    }

    var asBool: Bool {
        get throws {
            guard case .bool(let value) = self else { throw VectorInputError(description: "not a bool: \(self)") }
            return value
        }
    }

    var asArray: [JSONValue] {
        get throws {
            guard case .array(let value) = self else { throw VectorInputError(description: "not an array: \(self)") }
            return value
        }
    }

    var isNull: Bool { self == .null }

    func real(_ key: String) throws -> CGFloat { try field(key).asReal }
    func int(_ key: String) throws -> Int { try field(key).asInt }
    func string(_ key: String) throws -> String { try field(key).asString }
    func bool(_ key: String) throws -> Bool { try field(key).asBool }
    func reals(_ key: String) throws -> [CGFloat] { try field(key).asArray.map { try $0.asReal } }
    func ints(_ key: String) throws -> [Int] { try field(key).asArray.map { try $0.asInt } }

    /// A string field as a string-backed enumeration.
    func enumeration<Value: RawRepresentable>(_ key: String) throws -> Value where Value.RawValue == String {
        let raw = try string(key)
        guard let value = Value(rawValue: raw) else {
            throw VectorInputError(description: "unexpected \(key) \"\(raw)\"")
        }
        return value
    }

    /// `nil` for JSON `null`, else the number.
    func optionalReal(_ key: String) throws -> CGFloat? {
        let value = try field(key)
        return value.isNull ? nil : try value.asReal
    }

    func size(widthKey: String = "width", heightKey: String = "height") throws -> CGSize {
        CGSize(width: try real(widthKey), height: try real(heightKey))
    }

    func point() throws -> CGPoint {
        CGPoint(x: try real("x"), y: try real("y"))
    }
}

/// Builders for expected-shape outputs.
extension JSONValue {
    static func real(_ value: CGFloat) -> JSONValue { .number(Double(value)) }
    static func int(_ value: Int) -> JSONValue { .number(Double(value)) }
    static func optionalInt(_ value: Int?) -> JSONValue { value.map { .int($0) } ?? .null }
    static func optionalReal(_ value: CGFloat?) -> JSONValue { value.map { .real($0) } ?? .null }
    static func ints(_ values: [Int]) -> JSONValue { .array(values.map { .int($0) }) }

    /// `{center_x, center_y, width, height}` of a frame.
    static func item(_ frame: CGRect) -> JSONValue {
        .object([
            "center_x": .real(frame.midX),
            "center_y": .real(frame.midY),
            "width": .real(frame.width),
            "height": .real(frame.height),
        ])
    }
}

/// Compares an expected JSON value with an actual one: same shape, equal non-numbers, numbers
/// within `tolerance`.
enum JSONComparison {
    static func differences(expected: JSONValue, actual: JSONValue, tolerance: Double, path: String = "$") -> [String] {
        switch (expected, actual) {
        case (.number(let e), .number(let a)):
            return abs(e - a) <= tolerance ? [] : ["\(path): expected \(e), got \(a)"]
        case (.array(let e), .array(let a)):
            guard e.count == a.count else { return ["\(path): expected \(e.count) elements, got \(a.count)"] }
            return zip(e, a).enumerated().flatMap { index, pair in
                differences(expected: pair.0, actual: pair.1, tolerance: tolerance, path: "\(path)[\(index)]")
            }
        case (.object(let e), .object(let a)):
            guard Set(e.keys) == Set(a.keys) else {
                return ["\(path): expected keys \(e.keys.sorted()), got \(a.keys.sorted())"]
            }
            return e.keys.sorted().flatMap { key in
                differences(expected: e[key]!, actual: a[key]!, tolerance: tolerance, path: "\(path).\(key)")
            }
        default:
            return expected == actual ? [] : ["\(path): expected \(expected), got \(actual)"]
        }
    }
}
