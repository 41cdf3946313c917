/// One byte range of a `Range: bytes=…` header, resolved against a file size.
struct ByteRange: Equatable {
    var lowerBound: Int64
    var upperBound: Int64  // inclusive

    var count: Int64 { upperBound - lowerBound + 1 }

    enum Parsed: Equatable {
        /// The header is absent, malformed, or asks for several ranges: send the whole file.
        case whole
        case range(ByteRange)
        /// Syntactically fine but outside the file: 416.
        case unsatisfiable
    }

    /// `bytes=START-END`, `bytes=START-` or `bytes=-SUFFIX` against a file of `size` bytes.
    static func parse(_ header: String?, size: Int64) -> Parsed {
        guard let header, header.hasPrefix("bytes="), !header.contains(",") else { return .whole }
        let spec = header.dropFirst(6).trimmingSpaces
        guard let dash = spec.firstIndex(of: "-") else { return .whole }
        let first = spec[..<dash], last = spec[spec.index(after: dash)...]
        switch (position(first), position(last)) {
        case (nil, let suffix?) where first.isEmpty:
            guard suffix > 0, size > 0 else { return .unsatisfiable }
            return .range(ByteRange(lowerBound: max(0, size - suffix), upperBound: size - 1))
        case (let start?, nil) where last.isEmpty:
            guard start >= 0, start < size else { return .unsatisfiable }
            return .range(ByteRange(lowerBound: start, upperBound: size - 1))
        case (let start?, let end?):
            guard start >= 0, start <= end else { return .whole }
            guard start < size else { return .unsatisfiable }
            return .range(ByteRange(lowerBound: start, upperBound: min(end, size - 1)))
        default:
            return .whole
        }
    }
}

extension ByteRange {
    /// A byte position: digits only (no sign); one too large for `Int64` is past any file's end,
    /// so it reads as `Int64.max` rather than as malformed.
    private static func position(_ digits: Substring) -> Int64? {
        guard !digits.isEmpty, digits.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return Int64(digits) ?? Int64.max
    }
}

extension Substring {
    fileprivate var trimmingSpaces: Substring {
        var s = self
        while s.first == " " { s.removeFirst() }
        while s.last == " " { s.removeLast() }
        return s
    }
}
