public import Timeline

/// One year as `/api/sections?level=years` and `shoebox sections --level years --json` give it:
/// `index`, `year`, `count`, `months` (12 counts, January first) and `key`, the year's readable
/// photo nearest today's month and day, shaped as the photos of the other section answers. The counts
/// are photos, a stack with all of its photos, as the section headers count them (`photoCount`).
public struct YearJSON: Encodable, Sendable {
    public var index: Int
    public var year: Int
    public var count: Int
    public var months: [Int]
    public var key: SectionJSON.Photo
    /// `YYYY-MM-DD` of the key photo's day, so a card can say "this day, N years ago".
    public var keyDay: String

    /// - Parameter detail: the server's photo fields (id, size, media type) besides path,
    ///   captured and date source.
    public init(_ year: TimelineYear, index: Int, snapshot: TimelineSnapshot, detail: Bool) {
        self.index = index
        self.year = year.year
        count = year.count
        months = year.months
        keyDay = year.keyDay.isoString
        key = snapshot.photoJSON(ofPhoto: year.keyPhoto, detail: detail)
    }
}

extension TimelineSnapshot {
    /// The years of the timeline, their key photos picked for `today`.
    ///
    /// - Complexity: O(photos).
    public func yearList(today: TimelineDay, detail: Bool) -> [YearJSON] {
        timeline.years(today: today, photoCount: photoCounter, isReadable: readablePhotos).enumerated().map {
            YearJSON($1, index: $0, snapshot: self, detail: detail)
        }
    }
}
