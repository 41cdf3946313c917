/// Entropy-coded JPEG data for the fixtures' DC-only scans: bits most significant first, a zero
/// byte stuffed after each 0xFF, the last byte padded with one bits.
struct JPEGBitWriter {
    private var bytes: [UInt8] = []
    private var current: UInt8 = 0
    private var used = 0

    mutating func write(_ value: Int, bits: Int) {
        for bit in stride(from: bits - 1, through: 0, by: -1) {
            current = current << 1 | UInt8((value >> bit) & 1)
            used += 1
            if used == 8 { flush() }
        }
    }

    /// The magnitude category of a DC difference: the bits its magnitude takes.
    static func category(of difference: Int) -> Int {
        difference == 0 ? 0 : Int.bitWidth - abs(difference).leadingZeroBitCount
    }

    /// A DC difference's magnitude bits, after its category's code.
    mutating func writeMagnitude(_ difference: Int) {
        let category = Self.category(of: difference)
        if category > 0 { write(difference > 0 ? difference : difference + (1 << category) - 1, bits: category) }
    }

    /// A DC difference coded with the standard DC table (ITU T.81 K.3): its category's code,
    /// then its magnitude bits.
    mutating func writeDC(_ difference: Int) {
        let category = Self.category(of: difference)
        // Canonical codes of the standard table: 00, 010 … 110, then 1110, 11110 ….
        let (code, length) = category == 0 ? (0, 2) : category <= 5 ? (category + 1, 3) : ((1 << (category - 2)) - 2, category - 2)
        write(code, bits: length)
        writeMagnitude(difference)
    }

    /// The bytes, the last one padded with one bits.
    mutating func finish() -> [UInt8] {
        if used > 0 { write((1 << (8 - used)) - 1, bits: 8 - used) }
        return bytes
    }

    private mutating func flush() {
        bytes.append(current)
        if current == 0xFF { bytes.append(0) }
        current = 0
        used = 0
    }
}
