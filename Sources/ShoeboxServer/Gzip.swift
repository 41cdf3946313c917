import CZlib
import Foundation

/// gzip compression with the system zlib, for answers sent with `Content-Encoding: gzip`.
enum Gzip {
    /// `bytes` as one gzip member (RFC 1952), or nil if zlib fails (the caller then sends them plain).
    ///
    /// - Complexity: O(n); zlib's default level, about 1 ms per 100 KB of JSON.
    static func compress(_ bytes: UnsafeRawBufferPointer, level: Int32 = Z_DEFAULT_COMPRESSION) -> [UInt8]? {
        // zlib keeps a pointer back to the stream in its state, so the stream must not move.
        let z = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        z.initialize(to: z_stream())
        defer {
            z.deinitialize(count: 1)
            z.deallocate()
        }
        guard shoebox_deflate_init_gzip(z, level) == Z_OK else { return nil }
        defer { deflateEnd(z) }
        // deflateBound covers the gzip header and trailer: one call with Z_FINISH always ends the stream.
        var output = [UInt8](repeating: 0, count: Int(deflateBound(z, uLong(bytes.count))))
        let status = output.withUnsafeMutableBufferPointer { out in
            z.pointee.next_in = UnsafeMutablePointer(mutating: bytes.bindMemory(to: Bytef.self).baseAddress)
            z.pointee.avail_in = uInt(bytes.count)
            z.pointee.next_out = out.baseAddress
            z.pointee.avail_out = uInt(out.count)
            return deflate(z, Z_FINISH)
        }
        guard status == Z_STREAM_END else { return nil }
        output.removeLast(Int(z.pointee.avail_out))
        return output
    }

    /// Whether an `Accept-Encoding` value allows gzip (RFC 9110 §12.5.3): `gzip` (or `x-gzip`)
    /// with a q-value above 0, else `*` with one. `gzip;q=0` refuses it even when `*` is allowed.
    static func isAccepted(by acceptEncoding: String?) -> Bool {
        guard let acceptEncoding else { return false }
        var gzipQuality: Double?
        var anyQuality: Double?
        for element in acceptEncoding.split(separator: ",") {
            let parts = element.split(separator: ";")
            guard let name = parts.first?.trimmingCharacters(in: .whitespaces).lowercased(), !name.isEmpty else { continue }
            var quality = 1.0
            for parameter in parts.dropFirst() {
                let pair = parameter.split(separator: "=", maxSplits: 1)
                if pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces).lowercased() == "q" {
                    quality = Double(pair[1].trimmingCharacters(in: .whitespaces)) ?? 0
                }
            }
            switch name {
            case "gzip", "x-gzip": gzipQuality = max(gzipQuality ?? 0, quality)
            case "*": anyQuality = quality
            default: break
            }
        }
        return (gzipQuality ?? anyQuality ?? 0) > 0
    }
}
