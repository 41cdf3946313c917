import HTTPTypes
import Hummingbird
import PhotoLibrary
#if canImport(Glibc)
import Glibc
#endif

/// An open file served whole or by byte ranges (`Range`, RFC 9110 §14).
protocol ReadableFile: Sendable {
    var descriptor: Int32 { get }
    var size: Int64 { get }
}

extension ReadableFile {
    /// The answer to `request`: the whole file (200), the range it asks for (206), or a 416 error;
    /// `headers` go with it, plus the length and range.
    func response(to request: Request, headers: HTTPFields) throws -> Response {
        var headers = headers
        switch ByteRange.parse(request.headers[.range], size: size) {
        case .whole:
            headers[.contentLength] = String(size)
            return Response(status: .ok, headers: headers, body: rangeBody(ByteRange(lowerBound: 0, upperBound: size - 1)))
        case .range(let range):
            headers[.contentRange] = "bytes \(range.lowerBound)-\(range.upperBound)/\(size)"
            headers[.contentLength] = String(range.count)
            return Response(status: .partialContent, headers: headers, body: rangeBody(range))
        case .unsatisfiable:
            throw APIError(.rangeNotSatisfiable, code: "rangeNotSatisfiable", "The range is outside the file (\(size) bytes).")
        }
    }

    /// `range` of the file as a streamed body, read in chunks of 256 KiB; the file stays open
    /// until the body is sent.
    func rangeBody(_ range: ByteRange) -> ResponseBody {
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
            withExtendedLifetime(self) {}
        }
    }
}

extension OpenedFile: ReadableFile {}
