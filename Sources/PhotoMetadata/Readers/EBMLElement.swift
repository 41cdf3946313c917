/// The header of one EBML element (Matroska, WebM): its id and the extent of its data.
struct EBMLElement {
    /// The id with its length marker kept, as the specification writes ids (`0x1A45DFA3`).
    var id: UInt32
    var start: Int
    var dataStart: Int
    /// `nil` when the size is "unknown" (all ones), as live recordings write for Segment and Cluster.
    var size: Int?

    var end: Int? { size.map { dataStart + $0 } }

    /// Reads the header at `offset` of `view` (an id of 1–4 bytes, a size of 1–8 bytes).
    static func parse(_ view: ByteView, at offset: Int) throws(MetadataError) -> EBMLElement {
        let (id, idLength) = try variableInteger(view, at: offset, maximumLength: 4, keepMarker: true)
        let (size, sizeLength) = try variableInteger(view, at: offset + idLength, maximumLength: 8, keepMarker: false)
        let unknown = size == (UInt64(1) << (7 * UInt64(sizeLength))) - 1
        guard unknown || size <= UInt64(Int.max / 2) else { throw .malformed("An EBML element claims \(size) bytes.") }
        return EBMLElement(id: UInt32(id), start: offset, dataStart: offset + idLength + sizeLength, size: unknown ? nil : Int(size))
    }

    /// An EBML variable-length integer: the count of leading zero bits of the first byte gives
    /// the length.
    static func variableInteger(_ view: ByteView, at offset: Int, maximumLength: Int, keepMarker: Bool) throws(MetadataError) -> (UInt64, Int) {
        let first = try view.u8(offset)
        let length = first.leadingZeroBitCount + 1
        guard first != 0, length <= maximumLength else { throw .malformed("An EBML number at offset \(offset) is longer than \(maximumLength) bytes.") }
        var value = UInt64(keepMarker ? first : first & (0xFF >> length))
        for index in 1..<length {
            value = value << 8 | UInt64(try view.u8(offset + index))
        }
        return (value, length)
    }

    /// The children of the data of an element held in `view`, in order; stops quietly at a broken one.
    static func children(of view: ByteView, from: Int = 0, to: Int? = nil, limit: Int = 1024) -> [EBMLElement] {
        let end = min(to ?? view.count, view.count)
        var elements: [EBMLElement] = []
        var offset = from
        while offset < end, elements.count < limit {
            guard let element = try? parse(view, at: offset), let elementEnd = element.end, elementEnd <= end else { break }
            elements.append(element)
            offset = elementEnd
        }
        return elements
    }
}

extension ByteView {
    /// A big-endian unsigned integer of 0 to 8 bytes, as EBML stores them.
    func ebmlUnsigned(_ element: EBMLElement) throws(MetadataError) -> UInt64 {
        guard let size = element.size, size <= 8 else { throw .malformed("An EBML integer is longer than 8 bytes.") }
        var value: UInt64 = 0
        for index in 0..<size { value = value << 8 | UInt64(try u8(element.dataStart + index)) }
        return value
    }

    /// An EBML float of 4 or 8 bytes.
    func ebmlFloat(_ element: EBMLElement) throws(MetadataError) -> Double {
        switch element.size {
        case 4: return Double(Float(bitPattern: try u32(element.dataStart)))
        case 8: return Double(bitPattern: try u64(element.dataStart))
        default: throw .malformed("An EBML float is neither 4 nor 8 bytes long.")
        }
    }
}
