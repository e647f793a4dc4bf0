import MyTODO

// The named queries of the TODO store on each database: each method is the generated function of
// the same name on the database type (or, in a transaction, on its access type), nothing more.

extension SQLiteTODOItems {
    func filteredItems(isDone: Bool) async throws -> [TODOItem] { try database.filteredItems(isDone: isDone) }
    func openCountsByPriority() async throws -> [MyTODOQueries.OpenCountsByPriorityRow] {
        try database.openCountsByPriority()
    }
    func search(pattern: String, limit: Int) async throws -> [MyTODOQueries.SearchRow] {
        try database.search(pattern: pattern, limit: limit)
    }
    func markAllDone(priority: Priority) async throws -> Int { try database.markAllDone(priority: priority) }
    func markAllDoneThenRollBack(priority: Priority) async throws {
        try await database.write { access in
            try access.markAllDone(priority: priority)
            throw RolledBack(openItems: try access.filteredItems(isDone: false))
        }
    }
}

extension PostgresTODOItems {
    func filteredItems(isDone: Bool) async throws -> [TODOItem] { try await database.filteredItems(isDone: isDone) }
    func openCountsByPriority() async throws -> [MyTODOQueries.OpenCountsByPriorityRow] {
        try await database.openCountsByPriority()
    }
    func search(pattern: String, limit: Int) async throws -> [MyTODOQueries.SearchRow] {
        try await database.search(pattern: pattern, limit: limit)
    }
    func markAllDone(priority: Priority) async throws -> Int { try await database.markAllDone(priority: priority) }
    func markAllDoneThenRollBack(priority: Priority) async throws {
        try await database.write { access in
            try await access.markAllDone(priority: priority)
            throw RolledBack(openItems: try await access.filteredItems(isDone: false))
        }
    }
}
