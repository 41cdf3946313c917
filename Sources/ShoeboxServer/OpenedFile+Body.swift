import Hummingbird
import PhotoLibrary
#if canImport(Glibc)
import Glibc
#endif

extension OpenedFile {
    /// `range` of the file as a streamed body, read in chunks of 256 KiB.
    func body(_ range: ByteRange) -> ResponseBody {
        ResponseBody(contentLength: Int(range.count)) { writer in
            var offset = range.lowerBound
            var chunk = [UInt8](repeating: 0, count: 256 * 1024)
            while offset <= range.upperBound {
                let want = Int(min(Int64(chunk.count), range.upperBound - offset + 1))
                let got = chunk.withUnsafeMutableBytes { pread(self.descriptor, $0.baseAddress!, want, off_t(offset)) }
                guard got > 0 else { break }
                try await writer.write(ByteBuffer(bytes: chunk.prefix(got)))
                offset += Int64(got)
            }
            try await writer.finish(nil)
        }
    }
}
