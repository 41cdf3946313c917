@testable import ShoeboxCLI
import Testing

@Suite struct ProgressDisplayTests {
    @Test func noRateFromANearZeroInterval() {
        let line = ProgressDisplay.bar(done: 55, total: 55, since: .now)
        #expect(line.contains("55/55"))
        #expect(!line.contains("files/s"), "a rate from microseconds is noise: \(line)")
        #expect(!line.contains("ETA"))
    }

    @Test func rateAfterASecond() {
        let line = ProgressDisplay.bar(done: 300, total: 600, since: .now - .seconds(3))
        #expect(line.contains("100 files/s") || line.contains("99 files/s"), "\(line)")
        #expect(line.contains("ETA 0:03") || line.contains("ETA 0:04"), "\(line)")
    }
}
