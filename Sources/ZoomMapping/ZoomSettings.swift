public import Timeline

/// Grids of both levels, the content insets and the viewport.
///
/// JSON keys (all optional; missing keys take the defaults shown):
/// ```json
/// { "coarse": { "columns": 10, "itemSpacing": 0, "lineSpacing": 0, "headerHeight": 50,
///               "sectionInsets": { "top": 0, "left": 0, "bottom": 0, "right": 0 } },
///   "fine":   { "columns": 4, "itemSpacing": 1.5, "lineSpacing": 1.5, "headerHeight": 50,
///               "sectionInsets": { "top": 0, "left": 0, "bottom": 0, "right": 0 } },
///   "contentInsets": { "top": 0, "bottom": 0 },
///   "viewport": { "width": 390, "height": 844 } }
/// ```
/// Decoding does not validate; call ``validate()`` (``ZoomMap`` does).
public struct ZoomSettings: Sendable, Hashable, Codable {
    public var coarse: GridMetrics
    public var fine: GridMetrics
    public var contentInsets: ContentInsets
    public var viewport: ViewportSize

    public init(
        coarse: GridMetrics = .coarse, fine: GridMetrics = .fine,
        contentInsets: ContentInsets = ContentInsets(), viewport: ViewportSize = ViewportSize()
    ) {
        self.coarse = coarse
        self.fine = fine
        self.contentInsets = contentInsets
        self.viewport = viewport
    }

    /// The grid of `level`.
    public func metrics(_ level: TimelineLevel) -> GridMetrics {
        level == .coarse ? coarse : fine
    }

    private enum CodingKeys: String, CodingKey {
        case coarse, fine, contentInsets, viewport
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        func level(_ key: CodingKeys, defaults: GridMetrics) throws -> GridMetrics {
            guard c.contains(key), try !c.decodeNil(forKey: key) else { return defaults }
            return try GridMetrics(from: c.superDecoder(forKey: key), defaults: defaults)
        }
        self.init(
            coarse: try level(.coarse, defaults: .coarse),
            fine: try level(.fine, defaults: .fine),
            contentInsets: try c.decodeIfPresent(ContentInsets.self, forKey: .contentInsets) ?? ContentInsets(),
            viewport: try c.decodeIfPresent(ViewportSize.self, forKey: .viewport) ?? ViewportSize())
    }

    /// Throws one error listing every value out of range, each with its JSON key.
    public func validate() throws(ZoomError) {
        var problems: [String] = []
        func finite(_ value: Double, _ key: String, minimum: Double = 0) {
            if !value.isFinite || value < minimum {
                problems.append("\(key) must be a finite number of at least \(format(minimum)) (got \(format(value)))")
            }
        }
        for level in TimelineLevel.allCases {
            let m = metrics(level)
            if m.columns < 1 { problems.append("\(level).columns must be at least 1 (got \(m.columns))") }
            finite(m.itemSpacing, "\(level).itemSpacing")
            finite(m.lineSpacing, "\(level).lineSpacing")
            finite(m.headerHeight, "\(level).headerHeight")
            finite(m.sectionInsets.top, "\(level).sectionInsets.top")
            finite(m.sectionInsets.left, "\(level).sectionInsets.left")
            finite(m.sectionInsets.bottom, "\(level).sectionInsets.bottom")
            finite(m.sectionInsets.right, "\(level).sectionInsets.right")
            if m.columns >= 1, viewport.width.isFinite, !(m.cellSide(viewportWidth: viewport.width) > 0) {
                problems.append(
                    "the \(level) grid leaves no room for cells: viewport width \(format(viewport.width)) minus "
                        + "side insets and \(m.columns - 1) gaps of \(format(m.itemSpacing)) is not positive")
            }
        }
        finite(contentInsets.top, "contentInsets.top")
        finite(contentInsets.bottom, "contentInsets.bottom")
        if !viewport.width.isFinite || !(viewport.width > 0) {
            problems.append("viewport.width must be a positive number (got \(format(viewport.width)))")
        }
        if !viewport.height.isFinite || !(viewport.height > 0) {
            problems.append("viewport.height must be a positive number (got \(format(viewport.height)))")
        }
        guard !problems.isEmpty else { return }
        throw ZoomError(code: .invalidSettings, level: nil, message: "invalid zoom settings: " + problems.joined(separator: "; "))
    }
}

/// `value` without a trailing ".0" when it is whole.
func format(_ value: Double) -> String {
    if value.isFinite, abs(value) < 1e15, value == Double(Int(value)) { return String(Int(value)) }
    return String(value)
}
