import Foundation
@testable import LibraryIndex
import Testing

/// The hand-off from the readers to the writer: batches are gathered whole, but never held back
/// long, and the last items come out as soon as the producers are done.
@Suite("Reader-to-writer hand-off")
struct ResultBufferTests {
    @Test("A batch waits a little for items still coming, up to the limit; never past the gathering time or the producers' end")
    func gathersBatches() throws {
        let buffer = ResultBuffer<Int>(capacity: 100, producers: 1)
        buffer.push(0)
        let producer = Thread {
            for n in 1..<10 {
                Thread.sleep(forTimeInterval: 0.005)
                buffer.push(n)
            }
        }
        producer.start()
        // Ten arrive within about 50 ms: gathering for up to 5 s takes them in one batch.
        let whole = buffer.take(limit: 10, until: Date().addingTimeInterval(30), gathering: 5)
        #expect(whole.items == Array(0..<10))
        #expect(!whole.drained)

        // Gathering is bounded: one item and nothing more for 50 ms gives a batch of one.
        buffer.push(10)
        let started = Date()
        let single = buffer.take(limit: 10, until: Date().addingTimeInterval(30), gathering: 0.05)
        #expect(single.items == [10])
        #expect(Date().timeIntervalSince(started) < 5)

        // Once the producers are done, what is left comes at once, and the buffer says it is drained.
        buffer.push(11)
        buffer.producerFinished()
        let before = Date()
        let last = buffer.take(limit: 10, until: Date().addingTimeInterval(30), gathering: 30)
        #expect(last.items == [11] && last.drained)
        #expect(Date().timeIntervalSince(before) < 5)
    }
}
