/// The fixed, keyed 64-bit hash that orders photos for the stable coarse sample.
///
/// `value(seed:path:)` is FNV-1a 64 (offset basis `0xcbf29ce484222325`, prime `0x100000001b3`)
/// over the seed's 8 little-endian bytes, then the path's UTF-8 bytes, then the SplitMix64
/// finaliser:
/// ```
/// z = (z ^ (z >> 30)) &* 0xbf58476d1ce4e5b9
/// z = (z ^ (z >> 27)) &* 0x94d049bb133111eb
/// z =  z ^ (z >> 31)
/// ```
/// It depends on nothing but its inputs, so a seed gives the same sample on every run and machine.
/// Ties (equal hashes) are broken by path in UTF-8 byte order.
public enum SampleHash {
    public static let fnvOffsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325
    public static let fnvPrime: UInt64 = 0x0000_0100_0000_01b3

    public static func value(seed: UInt64, path: String) -> UInt64 {
        var hash = fnvOffsetBasis
        var remaining = seed
        for _ in 0..<8 {
            hash = (hash ^ (remaining & 0xff)) &* fnvPrime
            remaining >>= 8
        }
        if let fast = path.utf8.withContiguousStorageIfAvailable({ fnv1a(hash, $0) }) {
            hash = fast
        } else {
            hash = fnv1a(hash, path.utf8)
        }
        return splitMix64Finalizer(hash)
    }

    /// SplitMix64's output mixing function (without the golden-gamma increment).
    public static func splitMix64Finalizer(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }

    @inline(__always)
    private static func fnv1a(_ start: UInt64, _ bytes: some Sequence<UInt8>) -> UInt64 {
        var hash = start
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* fnvPrime
        }
        return hash
    }
}

/// Whether path `a` sorts before path `b` in UTF-8 byte order (SQLite's BINARY collation).
@inline(__always)
func pathPrecedes(_ a: String, _ b: String) -> Bool {
    a.utf8.lexicographicallyPrecedes(b.utf8)
}
