import LibraryIndex
import Testing

@Suite("PlainNumber: the one grammar of request numbers")
struct PlainNumberTests {
    @Test("plain decimals are read", arguments: [("0", 0.0), ("-0", 0.0), ("390", 390), ("-12.5", -12.5), ("0.25", 0.25), ("100000", 100_000)])
    func plain(text: String, value: Double) {
        #expect(PlainNumber.decimal(text) == value)
    }

    @Test("anything else is refused", arguments: [
        "", "+4", "0390", "00", "-", "1e5", "1E5", "0x10", "NaN", "nan", "inf", "Infinity", " 1", "1 ", ".5", "5.", "1.2.3",
        "--1", "1-", "١٢", String(repeating: "1", count: 41),
    ])
    func refused(text: String) {
        #expect(PlainNumber.decimal(text) == nil)
        #expect(PlainNumber.integer(text) == nil)
    }

    @Test("whole numbers: no fraction, and only those that fit")
    func integers() {
        #expect(PlainNumber.integer("42") == 42)
        #expect(PlainNumber.integer("-7") == -7)
        #expect(PlainNumber.integer("4.0") == nil)
        #expect(PlainNumber.integer("9223372036854775807") == Int.max)
        #expect(PlainNumber.integer("9223372036854775808") == nil)
    }
}
