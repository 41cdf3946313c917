/// An XMP text with its tags and namespace scopes: where a property is, and where a new one goes.
struct XMPDocument {
    /// Where a property's value is, and how to replace it.
    struct Occurrence {
        var range: Range<Int>
        /// The replacement for `range` given the new value's bytes.
        var replacement: ([UInt8]) -> [UInt8]
    }

    let text: [UInt8]
    let tokens: XMLTokens
    /// The prefixes in scope at each element, from its ancestors and itself.
    private let scopes: [[String: String]]

    init(text: [UInt8], tokens: XMLTokens) {
        self.text = text
        self.tokens = tokens
        var scopes: [[String: String]] = []
        scopes.reserveCapacity(tokens.elements.count)
        for element in tokens.elements {
            var scope = element.parent.map { scopes[$0] } ?? ["xml": "http://www.w3.org/XML/1998/namespace"]
            for attribute in element.attributes {
                let name = String(decoding: text[attribute.name], as: UTF8.self)
                if name.hasPrefix("xmlns:") {
                    scope[String(name.dropFirst(6))] = String(decoding: text[attribute.value], as: UTF8.self)
                } else if name == "xmlns" {
                    scope[""] = String(decoding: text[attribute.value], as: UTF8.self)
                }
            }
            scopes.append(scope)
        }
        self.scopes = scopes
    }

    /// The namespace and local name of a qualified name in the scope of element `index`;
    /// `isAttribute` names without a prefix have no namespace.
    private func resolve(_ qualified: Range<Int>, in index: Int, isAttribute: Bool) -> (namespace: String?, local: Substring) {
        let name = String(decoding: text[qualified], as: UTF8.self)
        guard let colon = name.firstIndex(of: ":") else {
            return (isAttribute ? nil : scopes[index][""], Substring(name))
        }
        return (scopes[index][String(name[..<colon])], name[name.index(after: colon)...])
    }

    /// Every place the property is written, as an attribute or as an element.
    func occurrences(namespace: String, name: String) -> [Occurrence] {
        var found: [Occurrence] = []
        for (index, element) in tokens.elements.enumerated() {
            let own = resolve(element.name, in: index, isAttribute: false)
            if own.namespace == namespace, own.local == name {
                let qualified = Array(text[element.name])
                if element.selfClosing {
                    found.append(Occurrence(range: element.startTag) { value in
                        [UInt8(ascii: "<")] + qualified + [UInt8(ascii: ">")] + value + Array("</".utf8) + qualified + [UInt8(ascii: ">")]
                    })
                } else if let end = element.endTag {
                    found.append(Occurrence(range: element.startTag.upperBound..<end.lowerBound) { $0 })
                }
            }
            for attribute in element.attributes {
                let resolved = resolve(attribute.name, in: index, isAttribute: true)
                if resolved.namespace == namespace, resolved.local == name {
                    found.append(Occurrence(range: attribute.value) { $0 })
                }
            }
        }
        return found
    }

    /// The edit that adds `properties` as attributes of the first `rdf:Description` (declaring
    /// their namespaces there when needed), or a new `rdf:Description` in `rdf:RDF`; `nil` when
    /// there is neither.
    func insertion(of properties: [(namespace: String, name: String, value: String)]) -> (range: Range<Int>, bytes: [UInt8])? {
        let elements = tokens.elements
        if let index = elements.indices.first(where: { isRDF(elements[$0], index: $0, local: "Description") }) {
            let element = elements[index]
            let separator = attributeSeparator(element)
            var scope = scopes[index]
            var declarations = ""
            var attributes = ""
            for property in properties {
                let name = qualifiedName(property.namespace, property.name, scope: &scope, declarations: &declarations, separator: separator)
                attributes += separator + name + "=\"" + property.value + "\""
            }
            return (element.tagEnd..<element.tagEnd, Array((declarations + attributes).utf8))
        }
        guard let index = elements.indices.first(where: { isRDF(elements[$0], index: $0, local: "RDF") }) else { return nil }
        let element = elements[index]
        let qualified = String(decoding: text[element.name], as: UTF8.self)
        let rdfPrefix = qualified.split(separator: ":").dropLast().first.map { $0 + ":" } ?? ""
        var scope = scopes[index]
        var added = ""
        var attributes = ""
        for property in properties {
            let name = qualifiedName(property.namespace, property.name, scope: &scope, declarations: &added, separator: " ")
            attributes += " " + name + "=\"" + property.value + "\""
        }
        let description = "<\(rdfPrefix)Description \(rdfPrefix)about=\"\"\(added)\(attributes)/>"
        if element.selfClosing {
            // `<rdf:RDF …/>` opened up: `<rdf:RDF …><rdf:Description …/></rdf:RDF>`.
            return (element.tagEnd..<element.startTag.upperBound, Array((">" + description + "</" + qualified + ">").utf8))
        }
        return (element.startTag.upperBound..<element.startTag.upperBound, Array(description.utf8))
    }

    private func isRDF(_ element: XMLTokens.Element, index: Int, local: String) -> Bool {
        let resolved = resolve(element.name, in: index, isAttribute: false)
        return resolved.namespace == XMPSidecar.rdf && resolved.local == local
    }

    /// `prefix:name` for a namespace, declaring it (appended to `declarations`) when no prefix in
    /// `scope` is bound to it.
    private func qualifiedName(_ namespace: String, _ name: String, scope: inout [String: String], declarations: inout String, separator: String) -> String {
        if let bound = scope.filter({ $0.value == namespace && !$0.key.isEmpty }).keys.sorted().first {
            return bound + ":" + name
        }
        let preferred = XMPSidecar.preferredPrefix[namespace] ?? "ns"
        var prefix = preferred
        var number = 1
        while scope[prefix] != nil {
            number += 1
            prefix = preferred + String(number)
        }
        scope[prefix] = namespace
        declarations += separator + "xmlns:" + prefix + "=\"" + namespace + "\""
        return prefix + ":" + name
    }

    /// What goes before a new attribute: a line break and the indentation of the tag's last
    /// attribute when the tag spans lines, else a space.
    private func attributeSeparator(_ element: XMLTokens.Element) -> String {
        guard let last = element.attributes.last else { return " " }
        var lineStart = last.name.lowerBound
        while lineStart > element.startTag.lowerBound, text[lineStart - 1] == 0x20 || text[lineStart - 1] == 0x09 { lineStart -= 1 }
        guard lineStart > element.startTag.lowerBound, text[lineStart - 1] == 0x0A else { return " " }
        return "\n" + String(decoding: text[lineStart..<last.name.lowerBound], as: UTF8.self)
    }
}
