extension TimelineDay {
    static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    static let weekdayNames = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]

    /// "Sat 8 Mar 2025": weekday, day, month, year.
    public var label: String {
        let (y, m, d) = components
        return "\(Self.weekdayNames[weekday - 1]) \(d) \(Self.monthNames[m - 1]) \(y)"
    }

    /// A compact range label, repeating only what differs, with an en dash:
    /// "Sat 8 Mar 2025" (one day), "8 – 9 Mar 2025", "28 Feb – 1 Mar 2025", "30 Dec 2024 – 2 Jan 2025".
    ///
    /// The bounds are swapped when given in reverse order.
    public static func rangeLabel(from first: TimelineDay, to last: TimelineDay) -> String {
        let (first, last) = first <= last ? (first, last) : (last, first)
        if first == last { return first.label }
        let a = first.components
        let b = last.components
        let end = "\(b.day) \(monthNames[b.month - 1]) \(b.year)"
        if a.year != b.year { return "\(a.day) \(monthNames[a.month - 1]) \(a.year) – " + end }
        if a.month != b.month { return "\(a.day) \(monthNames[a.month - 1]) – " + end }
        return "\(a.day) – " + end
    }
}
