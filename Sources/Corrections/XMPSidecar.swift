public import PhotoMetadata
public import WallClock

/// Writes dates and positions into XMP sidecar text, merged into what is there.
///
/// The text is edited in place, never rebuilt: a property Shoebox writes is replaced where it is
/// (an attribute of `rdf:Description` or an element of its own), a missing one is added as an
/// attribute of the first `rdf:Description`, with its namespace declared there when it is not in
/// scope. Every other byte — elements, attributes, namespaces, comments, white space, a raw
/// developer's history — stays as it was.
public enum XMPSidecar {
    /// The values to write; `nil` leaves that group alone.
    public struct Values: Sendable, Hashable {
        public var date: LocalDateTime?
        /// Written after the date when known (`+02:00`); a date without one is written without.
        public var offset: UTCOffset?
        public var position: GeoPosition?

        public init(date: LocalDateTime? = nil, offset: UTCOffset? = nil, position: GeoPosition? = nil) {
            self.date = date
            self.offset = offset
            self.position = position
        }
    }

    static let rdf = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
    static let exif = "http://ns.adobe.com/exif/1.0/"
    static let photoshop = "http://ns.adobe.com/photoshop/1.0/"
    static let xmp = "http://ns.adobe.com/xap/1.0/"
    /// The prefix each namespace gets when Shoebox declares it.
    static let preferredPrefix = [exif: "exif", photoshop: "photoshop", xmp: "xmp"]

    /// A new sidecar's text before its values are merged in.
    static let template = Array("""
        <x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="Shoebox">
         <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
          <rdf:Description rdf:about=""/>
         </rdf:RDF>
        </x:xmpmeta>

        """.utf8)

    /// The sidecar `existing` (a new one when `nil`) with `values` merged in.
    ///
    /// - Throws: `AdjustError` (`unusableSidecar`, subject `name`) when `existing` is not
    ///   well-formed XML, or holds no `rdf:RDF` to put the values in.
    public static func merged(into existing: [UInt8]?, _ values: Values, name: String) throws(AdjustError) -> [UInt8] {
        let text = existing ?? template
        guard let tokens = XMLTokens(text) else {
            throw AdjustError(.unusableSidecar, subject: name, "The sidecar \(name) is not well-formed XML: fix or move it, then try again.")
        }
        var properties: [(namespace: String, name: String, value: String)] = []
        if let date = values.date {
            let value = dateText(date, offset: values.offset)
            properties += [(exif, "DateTimeOriginal", value), (photoshop, "DateCreated", value), (xmp, "CreateDate", value)]
        }
        if let position = values.position {
            properties += [
                (exif, "GPSLatitude", coordinate(position.latitude, positive: "N", negative: "S")),
                (exif, "GPSLongitude", coordinate(position.longitude, positive: "E", negative: "W")),
            ]
        }
        let document = XMPDocument(text: text, tokens: tokens)
        var edits: [(range: Range<Int>, bytes: [UInt8])] = []
        var missing: [(namespace: String, name: String, value: String)] = []
        for property in properties {
            let found = document.occurrences(namespace: property.namespace, name: property.name)
            if found.isEmpty { missing.append(property) }
            for occurrence in found {
                edits.append((occurrence.range, occurrence.replacement(Array(property.value.utf8))))
            }
        }
        if !missing.isEmpty {
            guard let insertion = document.insertion(of: missing) else {
                throw AdjustError(.unusableSidecar, subject: name, "The sidecar \(name) holds no rdf:RDF to write into: it is not an XMP sidecar; move it aside, then try again.")
            }
            edits.append(insertion)
        }
        var result = text
        for edit in edits.sorted(by: { $0.range.lowerBound > $1.range.lowerBound }) {
            result.replaceSubrange(edit.range, with: edit.bytes)
        }
        return result
    }

    /// `YYYY-MM-DDTHH:MM:SS[.fff][±HH:MM]`.
    public static func dateText(_ date: LocalDateTime, offset: UTCOffset?) -> String {
        date.iso8601 + (offset.map(\.iso8601) ?? "")
    }

    /// XMP's GPS coordinate: whole degrees, a comma, minutes with six decimals, the hemisphere
    /// (`38,43.338000N`).
    public static func coordinate(_ degrees: Double, positive: String, negative: String) -> String {
        // Millionths of a minute, rounded once, so that 59.9999996 minutes carries into a degree.
        let micro = (degrees.magnitude * 60_000_000).rounded()
        let whole = Int64(micro) / 60_000_000
        let minutes = Int64(micro) % 60_000_000
        let fraction = String(minutes % 1_000_000)
        return "\(whole),\(minutes / 1_000_000)." + String(repeating: "0", count: 6 - fraction.count) + fraction
            + (degrees < 0 ? negative : positive)
    }
}
