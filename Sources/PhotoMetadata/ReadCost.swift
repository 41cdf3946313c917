/// What reading one file cost: bytes and system calls.
package struct ReadCost: Sendable, Hashable {
    package var bytes = 0
    package var reads = 0

    package init(bytes: Int = 0, reads: Int = 0) {
        self.bytes = bytes
        self.reads = reads
    }
}
