import CCrypto
public import Duplicates
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// SHA-256 of files, with OpenSSL's libcrypto (its EVP interface, one context per call).
///
/// libcrypto rather than swift-crypto: it is already on every machine that builds Shoebox
/// (`libssl-dev`), and a C library costs the build nothing, where swift-crypto adds a minute or
/// more to a clean build.
public enum FileDigest {
    /// What went wrong reading a file for its digest.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public var path: String
        public var message: String
        public var description: String { "Cannot read \(path): \(message)." }
    }

    /// The SHA-256 and size of the file at `path` (file-system bytes), read in 1 MiB blocks.
    public static func sha256(ofFileAt path: [UInt8]) throws(Failure) -> (digest: SHA256Value, size: Int64) {
        let shown = String(decoding: path, as: UTF8.self)
        let descriptor = (path + [0]).withUnsafeBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) { open($0, O_RDONLY | O_CLOEXEC) }
        }
        guard descriptor >= 0 else { throw Failure(path: shown, message: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        return try sha256(ofDescriptor: descriptor, shown: shown)
    }

    /// The SHA-256 and size of the open file at `descriptor`, read from its start (`pread`: the
    /// descriptor's offset is left alone); `shown` names it in a failure.
    public static func sha256(ofDescriptor descriptor: Int32, shown: String) throws(Failure) -> (digest: SHA256Value, size: Int64) {
        guard let context = EVP_MD_CTX_new() else { throw Failure(path: shown, message: "libcrypto could not make a digest context") }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1 else { throw Failure(path: shown, message: "libcrypto has no SHA-256") }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var size: Int64 = 0
        while true {
            let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, off_t(size)) }
            if count < 0 {
                if errno == EINTR { continue }
                throw Failure(path: shown, message: String(cString: strerror(errno)))
            }
            if count == 0 { break }
            size += Int64(count)
            _ = buffer.withUnsafeBytes { EVP_DigestUpdate(context, $0.baseAddress, count) }
        }
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        guard digest.withUnsafeMutableBufferPointer({ EVP_DigestFinal_ex(context, $0.baseAddress, &length) }) == 1, length == 32,
              let value = SHA256Value(bytes: digest)
        else { throw Failure(path: shown, message: "libcrypto could not finish the digest") }
        return (value, size)
    }
}
