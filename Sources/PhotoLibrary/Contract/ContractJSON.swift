public import Foundation

/// How every front end writes the JSON contract: keys sorted, slashes unescaped, so the CLI's
/// `--json` and the server's answers hold the same values for the same question. The CLI prints it
/// indented for people; the server sends it compact (half the bytes for a section list).
public enum ContractJSON {
    /// Encodes `value` as the contract's JSON (no trailing newline).
    public static func encode(_ value: some Encodable, compact: Bool = false) throws -> Data {
        try (compact ? compactEncoder : encoder).encode(value)
    }

    /// `bytes` in base64, as the contract gives the exact bytes of a path that is not UTF-8.
    static func base64(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    private static let compactEncoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()
}
