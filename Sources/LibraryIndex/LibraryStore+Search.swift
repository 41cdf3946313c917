import GRDB

extension LibraryStore {
    /// The rows matching `query` (see `SearchQuery`) as an SQL condition on `photo`, with its
    /// arguments: the terms through FTS5, the place fields as exact comparisons of the place columns.
    static func searchCondition(_ query: SearchQuery) -> (sql: String, arguments: StatementArguments) {
        var conditions: [String] = []
        var arguments = StatementArguments()
        if !query.terms.isEmpty {
            conditions.append("id IN (SELECT rowid FROM photoSearch WHERE photoSearch MATCH ?)")
            arguments += [query.matchExpression]
        }
        if query.undated { conditions.append("dateSource = 'fileModified'") }
        for field in query.placeFields {
            // A place without a country code is listed (and found) by its country name.
            let column = switch field.level {
            case .country: "coalesce(placeCountryCode, placeCountry)"
            case .region: "placeRegion"
            case .city: "placeCity"
            }
            if let name = field.name {
                conditions.append("\(column) = ? COLLATE NOCASE")
                arguments += [name]
            } else {
                conditions.append("\(column) IS NULL")
            }
        }
        return (conditions.isEmpty ? "0" : conditions.joined(separator: " AND "), arguments)
    }

    /// Refuses a database written before the search index (opened read-only, it is not migrated).
    static func requireSearchIndex(_ db: Database, path: String) throws {
        guard try db.tableExists("photoSearch") else {
            throw IndexError(
                .databaseIncomplete,
                "\(path) was written before search: run shoebox index on its folder once to build the search index.",
                subject: path)
        }
    }

    /// The ids of the photos matching `query`, ascending, a stack's member standing for its stack
    /// (see ``searchMatch(_:)``); none for an empty query.
    public func photoIDs(matching query: SearchQuery) throws(IndexError) -> [Int64] {
        try searchMatch(query).ids
    }

    /// The photos matching `query` as the timeline shows them: a stack is one item, its cover, so a
    /// member that matches (`IMG_E4120.JPG`, an edit stacked under its original) finds its stack.
    ///
    /// - Complexity: one FTS5 lookup per term (place fields alone scan the rows), then the stacks'
    ///   rows, which are few.
    public func searchMatch(_ query: SearchQuery) throws(IndexError) -> SearchMatch {
        guard !query.isEmpty else { return SearchMatch(ids: [], members: [:]) }
        return try read { db in
            try Self.requireSearchIndex(db, path: path)
            // Words alone: the FTS5 index gives the row ids in order, without reading a row.
            let condition = Self.searchCondition(query)
            let wordsAlone = query.placeFields.isEmpty && !query.undated
            let statement = try wordsAlone
                ? db.makeStatement(sql: "SELECT rowid FROM photoSearch WHERE photoSearch MATCH ? ORDER BY rowid")
                : db.makeStatement(sql: "SELECT id FROM photo WHERE \(condition.sql) ORDER BY id")
            try statement.setArguments(wordsAlone ? [query.matchExpression] : condition.arguments)
            // A raw loop: a result can hold most of a million ids.
            var ids: [Int64] = []
            try Self.forEachRow(of: statement, in: db) { ids.append($0.int64(0)) }
            guard try db.tableExists("stack") else { return SearchMatch(ids: ids, members: [:]) }
            var covers: [Int64: Int64] = [:]
            let rows = try Row.fetchCursor(db, sql: "SELECT photoId, stackId FROM stack WHERE photoId != stackId")
            while let row = try rows.next() { covers[row[0]] = row[1] }
            return SearchMatch(matching: ids, coverOfMember: covers)
        }
    }

    /// The rows with `ids`, in the order of `ids`; an unknown id is left out.
    ///
    /// - Complexity: one primary-key lookup per id, in one statement.
    public func photos(ids: [Int64]) throws(IndexError) -> [IndexedPhoto] {
        guard !ids.isEmpty else { return [] }
        return try read { db in
            let columns = try PhotoColumns(db)
            let statement = try db.makeStatement(
                sql: "SELECT \(columns.selection) FROM photo WHERE id IN (SELECT value FROM json_each(?))")
            try statement.setArguments(["[" + ids.map(String.init).joined(separator: ",") + "]"])
            var byID: [Int64: IndexedPhoto] = [:]
            try Self.forEachRow(of: statement, in: db) { row in
                let photo = try IndexedPhoto(row: row, columns: columns, database: path)
                if let id = photo.id { byID[id] = photo }
            }
            return ids.compactMap { byID[$0] }
        }
    }

    /// Calls `body` with every row matching `query` (the first `limit` when given), in capture
    /// order (then path); none for an empty query.
    public func forEachPhoto(matching query: SearchQuery, limit: Int? = nil, _ body: (IndexedPhoto) throws -> Void) throws(IndexError) {
        guard !query.isEmpty else { return }
        try read { db in
            try Self.requireSearchIndex(db, path: path)
            let columns = try PhotoColumns(db)
            let condition = Self.searchCondition(query)
            let statement = try db.makeStatement(
                sql: "SELECT \(columns.selection) FROM photo WHERE \(condition.sql) ORDER BY captured, path LIMIT ?")
            try statement.setArguments(condition.arguments + [limit.map { max(0, $0) } ?? -1])
            try Self.forEachRow(of: statement, in: db) { row in try body(IndexedPhoto(row: row, columns: columns, database: path)) }
        }
    }

    /// `forEachMoment` for the photos matching `query` only: the timeline of a search result, where
    /// a stack's member that matches finds its stack (its cover).
    public func forEachMoment(matching query: SearchQuery, _ body: (PhotoMoment) throws -> Void) throws(IndexError) {
        guard !query.isEmpty else { return }
        try read { db in
            try Self.requireSearchIndex(db, path: path)
            let moments = try MomentQuery(db)
            var condition = Self.searchCondition(query)
            if try db.tableExists("stack") {
                // A stack is its cover in the timeline: a member that matches finds it.
                condition = (
                    "(\(condition.sql) OR id IN (SELECT stackId FROM stack WHERE photoId IN (SELECT id FROM photo WHERE \(condition.sql))))",
                    condition.arguments + condition.arguments)
            }
            let filter = moments.timelineWhere.isEmpty ? "WHERE \(condition.sql)" : "\(moments.timelineWhere) AND \(condition.sql)"
            let statement = try db.makeStatement(sql: moments.selection + " \(filter) ORDER BY captured, path")
            try statement.setArguments(condition.arguments)
            try Self.forEachRow(of: statement, in: db) { row in
                if let moment = PhotoMoment(row: row) { try body(moment) }
            }
        }
    }
}
