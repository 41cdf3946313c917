/// The tags of an XML text with their byte ranges, for editing it in place: every byte outside
/// the edited ranges stays as it was.
///
/// Not a validating parser: it checks what an edit relies on (tags close in order, attributes are
/// quoted, names are there) and refuses the rest. Entities are never expanded, and a document
/// type declaration is skipped over, not read.
///
/// - Complexity: O(n) for n bytes.
struct XMLTokens {
    struct Attribute {
        /// The qualified name (`exif:DateTimeOriginal`).
        var name: Range<Int>
        /// Inside the quotes.
        var value: Range<Int>
    }

    struct Element {
        var name: Range<Int>
        var attributes: [Attribute]
        /// From `<` to `>` of the start tag.
        var startTag: Range<Int>
        /// Where `/>` or `>` of the start tag begins: new attributes go there.
        var tagEnd: Int
        var selfClosing: Bool
        /// From `<` to `>` of the end tag; `nil` when self-closing.
        var endTag: Range<Int>?
        /// The index of the parent in `elements`.
        var parent: Int?
        /// Whether any element is inside it.
        var hasChildren = false
    }

    /// Every element, in document order.
    private(set) var elements: [Element] = []

    /// Tokenizes `bytes`; `nil` when they are not well-formed enough to edit.
    init?(_ bytes: [UInt8]) {
        var index = 0
        var open: [Int] = []
        let count = bytes.count
        func find(_ pattern: [UInt8], from start: Int) -> Int? {
            var i = start
            while i + pattern.count <= count {
                if bytes[i] == pattern[0], bytes[i..<(i + pattern.count)].elementsEqual(pattern) { return i }
                i += 1
            }
            return nil
        }
        func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }
        func isNameByte(_ b: UInt8) -> Bool { !isSpace(b) && b != UInt8(ascii: "/") && b != UInt8(ascii: ">") && b != UInt8(ascii: "=") && b != UInt8(ascii: "<") && b != UInt8(ascii: "\"") && b != UInt8(ascii: "'") }
        while index < count {
            guard bytes[index] == UInt8(ascii: "<") else {
                index += 1
                continue
            }
            let start = index
            guard start + 1 < count else { return nil }
            switch bytes[start + 1] {
            case UInt8(ascii: "?"):
                guard let end = find(Array("?>".utf8), from: start + 2) else { return nil }
                index = end + 2
            case UInt8(ascii: "!"):
                if bytes[start...].starts(with: Array("<!--".utf8)) {
                    guard let end = find(Array("-->".utf8), from: start + 4) else { return nil }
                    index = end + 3
                } else if bytes[start...].starts(with: Array("<![CDATA[".utf8)) {
                    guard let end = find(Array("]]>".utf8), from: start + 9) else { return nil }
                    index = end + 3
                } else {
                    // <!DOCTYPE …>, with an internal subset in brackets skipped as a whole.
                    var depth = 0
                    var i = start + 2
                    while i < count, !(bytes[i] == UInt8(ascii: ">") && depth == 0) {
                        if bytes[i] == UInt8(ascii: "[") { depth += 1 }
                        if bytes[i] == UInt8(ascii: "]") { depth -= 1 }
                        i += 1
                    }
                    guard i < count else { return nil }
                    index = i + 1
                }
            case UInt8(ascii: "/"):
                var i = start + 2
                while i < count, isNameByte(bytes[i]) { i += 1 }
                let name = (start + 2)..<i
                while i < count, isSpace(bytes[i]) { i += 1 }
                guard i < count, bytes[i] == UInt8(ascii: ">"), let top = open.popLast(),
                      bytes[elements[top].name].elementsEqual(bytes[name])
                else { return nil }
                elements[top].endTag = start..<(i + 1)
                index = i + 1
            default:
                var i = start + 1
                while i < count, isNameByte(bytes[i]) { i += 1 }
                let name = (start + 1)..<i
                guard !name.isEmpty else { return nil }
                var attributes: [Attribute] = []
                while true {
                    while i < count, isSpace(bytes[i]) { i += 1 }
                    guard i < count else { return nil }
                    if bytes[i] == UInt8(ascii: ">") || bytes[i] == UInt8(ascii: "/") { break }
                    let nameStart = i
                    while i < count, isNameByte(bytes[i]) { i += 1 }
                    let attributeName = nameStart..<i
                    guard !attributeName.isEmpty else { return nil }
                    while i < count, isSpace(bytes[i]) { i += 1 }
                    guard i < count, bytes[i] == UInt8(ascii: "=") else { return nil }
                    i += 1
                    while i < count, isSpace(bytes[i]) { i += 1 }
                    guard i < count, bytes[i] == UInt8(ascii: "\"") || bytes[i] == UInt8(ascii: "'") else { return nil }
                    let quote = bytes[i]
                    let valueStart = i + 1
                    i = valueStart
                    while i < count, bytes[i] != quote {
                        guard bytes[i] != UInt8(ascii: "<") else { return nil }
                        i += 1
                    }
                    guard i < count else { return nil }
                    attributes.append(Attribute(name: attributeName, value: valueStart..<i))
                    i += 1
                }
                let tagEnd = i
                let selfClosing = bytes[i] == UInt8(ascii: "/")
                if selfClosing {
                    guard i + 1 < count, bytes[i + 1] == UInt8(ascii: ">") else { return nil }
                    i += 1
                }
                let parent = open.last
                if let parent { elements[parent].hasChildren = true }
                elements.append(Element(
                    name: name, attributes: attributes, startTag: start..<(i + 1), tagEnd: tagEnd,
                    selfClosing: selfClosing, endTag: nil, parent: parent))
                if !selfClosing { open.append(elements.count - 1) }
                index = i + 1
            }
        }
        guard open.isEmpty, !elements.isEmpty else { return nil }
    }
}
