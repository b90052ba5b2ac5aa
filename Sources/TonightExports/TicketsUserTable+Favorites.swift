extension TicketsUserTable {
    /// Per artist, how many users favour it (load-tickets' `favorites` table), by artist id.
    package func favoriteCounts() throws -> [ArtistFavorites] {
        let favorites = self.favorites
        return try ArtistFavorites.counts(lists: count) { u, body in
            favorites.withList(u) { list in
                list.withMemoryRebound(to: Int64.self) { body($0) }
            }
        }
    }
}
