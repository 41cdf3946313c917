import CCrypto
public import Duplicates

extension FileDigest {
    /// The SHA-256 of bytes in memory (a sidecar Shoebox writes).
    public static func sha256(of bytes: [UInt8]) -> SHA256Value {
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        let context = EVP_MD_CTX_new()
        defer { EVP_MD_CTX_free(context) }
        let done = EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1
            && bytes.withUnsafeBytes { EVP_DigestUpdate(context, $0.baseAddress, $0.count) } == 1
            && digest.withUnsafeMutableBufferPointer { EVP_DigestFinal_ex(context, $0.baseAddress, &length) } == 1
        // libcrypto's SHA-256 fails only without memory; an all-zero digest then matches no file.
        return (done ? SHA256Value(bytes: digest) : nil) ?? SHA256Value(bytes: [UInt8](repeating: 0, count: 32))!
    }
}
