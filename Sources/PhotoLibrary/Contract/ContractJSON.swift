public import Foundation

/// How every front end writes the JSON contract: pretty-printed, keys sorted, slashes unescaped,
/// so the CLI's `--json` and the server's answers are the same bytes for the same question.
public enum ContractJSON {
    /// Encodes `value` as the contract's JSON (no trailing newline).
    public static func encode(_ value: some Encodable) throws -> Data {
        try encoder.encode(value)
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()
}
