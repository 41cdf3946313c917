import CZlib

/// Decompresses zlib streams with the system zlib, never past a size limit.
enum Inflate {
    /// The bytes `stream` inflates to.
    ///
    /// Throws `.malformed` when the stream is damaged or ends early, and `.budgetExceeded` when
    /// it would inflate to more than `limit` bytes (a small chunk can announce gigabytes).
    static func zlib(_ stream: ByteView, limit: Int) throws(MetadataError) -> [UInt8] {
        // zlib keeps a pointer back to the stream in its state, so the stream must not move:
        // allocated here, not a Swift variable whose address is only valid during one call.
        let z = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        z.initialize(to: z_stream())
        defer {
            z.deinitialize(count: 1)
            z.deallocate()
        }
        guard shoebox_inflate_init(z) == Z_OK else {
            throw MetadataError(.malformed, "zlib could not start decompressing.")
        }
        defer { inflateEnd(z) }
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        var overLimit = false
        let status: Int32 = stream.withUnsafeBytes { input in
            z.pointee.next_in = UnsafeMutablePointer(mutating: input.bindMemory(to: Bytef.self).baseAddress)
            z.pointee.avail_in = uInt(input.count)
            var status = Z_OK
            // Z_BUF_ERROR (no progress possible) means the input ended before the stream did.
            while status == Z_OK {
                status = buffer.withUnsafeMutableBufferPointer { out in
                    z.pointee.next_out = out.baseAddress
                    z.pointee.avail_out = uInt(out.count)
                    return inflate(z, Z_NO_FLUSH)
                }
                let produced = buffer.count - Int(z.pointee.avail_out)
                guard output.count + produced <= limit else {
                    overLimit = true
                    break
                }
                output += buffer[0..<produced]
            }
            return status
        }
        if overLimit {
            throw MetadataError(.budgetExceeded, "A compressed block inflates to more than \(limit) bytes.")
        }
        guard status == Z_STREAM_END else {
            throw MetadataError(.malformed, "A compressed block is damaged or cut short.")
        }
        return output
    }
}
