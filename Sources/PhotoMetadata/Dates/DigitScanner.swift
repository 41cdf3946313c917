/// A cursor over ASCII text that reads fixed-width numbers and separators.
struct DigitScanner {
    private let bytes: [UInt8]
    private(set) var position = 0

    init(_ text: String) { bytes = Array(text.utf8) }
    init(bytes: [UInt8], position: Int = 0) {
        self.bytes = bytes
        self.position = position
    }

    var isAtEnd: Bool { position >= bytes.count }
    var rest: String { String(decoding: bytes[min(position, bytes.count)...], as: UTF8.self) }
    var current: UInt8? { position < bytes.count ? bytes[position] : nil }

    /// Whether every byte from here satisfies `predicate` (true at the end), without making `rest`.
    func restSatisfies(_ predicate: (UInt8) -> Bool) -> Bool {
        bytes[min(position, bytes.count)...].allSatisfy(predicate)
    }

    /// Exactly `digits` ASCII digits, or `nil` (and no move).
    mutating func number(digits: Int) -> Int? {
        guard position + digits <= bytes.count else { return nil }
        var value = 0
        for index in position..<position + digits {
            let byte = bytes[index]
            guard byte >= 0x30, byte <= 0x39 else { return nil }
            value = value * 10 + Int(byte - 0x30)
        }
        position += digits
        return value
    }

    /// All digits from here.
    mutating func digits() -> String {
        let from = position
        while let byte = current, byte >= 0x30, byte <= 0x39 { position += 1 }
        return String(decoding: bytes[from..<position], as: UTF8.self)
    }

    /// Moves past one of `characters` when it comes next.
    mutating func skip(oneOf characters: StaticString) -> Bool {
        guard peek(oneOf: characters) else { return false }
        position += 1
        return true
    }

    func peek(oneOf characters: StaticString) -> Bool {
        guard let byte = current else { return false }
        return characters.withUTF8Buffer { $0.contains(byte) }
    }

    /// Moves past the exact ASCII text when it comes next (case-insensitive for letters).
    mutating func skip(text: StaticString) -> Bool {
        let matched = text.withUTF8Buffer { expected -> Bool in
            guard position + expected.count <= bytes.count else { return false }
            for (index, byte) in expected.enumerated() where lowercased(bytes[position + index]) != lowercased(byte) {
                return false
            }
            return true
        }
        if matched { position += text.utf8CodeUnitCount }
        return matched
    }

    @discardableResult
    mutating func skipSpaces() -> Int {
        let from = position
        while current == 0x20 { position += 1 }
        return position - from
    }

    private func lowercased(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte + 32 : byte }
}
