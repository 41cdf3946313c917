/// The one grammar of numbers Shoebox reads from a request, a command-line option or a URL: plain
/// decimals, as a person writes them — an optional minus, digits without a leading zero (`0` alone
/// is fine), then optionally a point and digits: `390`, `-12.5`, `0.25`.
///
/// Refused: a plus sign (`+4`), leading zeros (`0390`), exponents (`1e5`), hexadecimal, `NaN`,
/// infinities, spaces, a bare point (`.5`, `5.`), and anything longer than 40 characters, so the
/// value is always finite and no parser's leniency decides what a request means.
public enum PlainNumber {
    /// The longest number read, in characters.
    public static let maximumLength = 40

    /// A plain decimal as a `Double`, or `nil` when `text` is not one.
    public static func decimal(_ text: some StringProtocol) -> Double? {
        guard isPlain(text.utf8, fraction: true) else { return nil }
        return Double(String(text))
    }

    /// A plain whole number as an `Int`, or `nil` when `text` is not one or does not fit.
    public static func integer(_ text: some StringProtocol) -> Int? {
        guard isPlain(text.utf8, fraction: false) else { return nil }
        return Int(String(text))
    }

    /// Whether `bytes` are `-?(0|[1-9][0-9]*)` followed, when `fraction`, by an optional `\.[0-9]+`.
    static func isPlain(_ bytes: some Collection<UInt8>, fraction: Bool) -> Bool {
        guard !bytes.isEmpty, bytes.count <= maximumLength else { return false }
        var index = bytes.startIndex
        if bytes[index] == UInt8(ascii: "-") { index = bytes.index(after: index) }
        let integerStart = index
        while index != bytes.endIndex, isDigit(bytes[index]) { index = bytes.index(after: index) }
        let integerDigits = bytes.distance(from: integerStart, to: index)
        guard integerDigits > 0 else { return false }
        if integerDigits > 1, bytes[integerStart] == UInt8(ascii: "0") { return false }
        guard index != bytes.endIndex else { return true }
        guard fraction, bytes[index] == UInt8(ascii: ".") else { return false }
        index = bytes.index(after: index)
        let fractionStart = index
        while index != bytes.endIndex, isDigit(bytes[index]) { index = bytes.index(after: index) }
        return index == bytes.endIndex && index != fractionStart
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }
}
