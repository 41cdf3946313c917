/// Writes bits least-significant first, as VP8L reads them.
struct BitWriter {
    private(set) var bytes: [UInt8] = []
    private var used = 0

    mutating func write(_ value: UInt32, bits: Int) {
        for bit in 0..<bits {
            if used == 0 { bytes.append(0) }
            if (value >> bit) & 1 == 1 { bytes[bytes.count - 1] |= UInt8(1 << used) }
            used = (used + 1) % 8
        }
    }
}
