import Foundation
import TonightAffinity
import TonightCore
import TonightExports
import TonightFeed
import TonightRanking

/// An intermediate table: the stage that writes it, its name and its row type. Stages read and
/// write tables through these constants (`StageContext.read`, `write`), so a stage cannot ask
/// for a table under the wrong name, the wrong row type or from a stage it does not list as an
/// input.
package struct StageTable<Row: BinaryRecord>: Sendable {
    /// The writing stage.
    package let stage: String
    /// The table name (`tonight runs dump STAGE NAME`); the file is `NAME.bin`.
    package let name: String

    package var file: String { name + ".bin" }

    package init(stage: String, name: String) {
        self.stage = stage
        self.name = name
    }
}

extension StageTable {
    /// Writes the table into a stage's output directory `dir`.
    package func write(_ rows: [Row], in dir: URL) throws {
        try BinaryTable.write(rows, table: name, to: dir.appendingPathComponent(file))
    }

    /// Reads the table from a stage's output directory `dir`.
    package func read(in dir: URL) throws -> [Row] {
        try BinaryTable.read(Row.self, table: name, from: dir.appendingPathComponent(file))
    }
}

extension StageTable where Row == FeedArtist {
    package static var feedArtists: Self { .init(stage: "parse-feed", name: "artists") }
}

extension StageTable where Row == FeedCategory {
    package static var feedCategories: Self { .init(stage: "parse-feed", name: "categories") }
}

extension StageTable where Row == FeedVenue {
    package static var feedVenues: Self { .init(stage: "parse-feed", name: "venues") }
}

extension StageTable where Row == FeedEvent {
    package static var feedEvents: Self { .init(stage: "parse-feed", name: "events") }
}

extension StageTable where Row == AffinityEdge {
    package static var affinityEdges: Self { .init(stage: "parse-affinity", name: "edges") }
}

extension StageTable where Row == GeocodedVenue {
    package static var placedVenues: Self { .init(stage: "geocode", name: "venues") }
}

extension StageTable where Row == LocatedEvent {
    package static var locatedEvents: Self { .init(stage: "geocode", name: "events") }
}

extension StageTable where Row == TicketsUser {
    package static var ticketsUsers: Self { .init(stage: "load-tickets", name: "users") }
}

extension StageTable where Row == ArtistFavorites {
    package static var artistFavorites: Self { .init(stage: "load-tickets", name: "favorites") }
}

extension StageTable where Row == PlaymatePlayer {
    package static var players: Self { .init(stage: "load-playmate", name: "players") }
}

extension StageTable where Row == PlaymateSession {
    package static var sessions: Self { .init(stage: "load-playmate", name: "sessions") }
}

extension StageContext {
    /// The file of a table: this stage's own output, or an upstream stage's (which the stage
    /// must list among its inputs).
    package func url<R>(of table: StageTable<R>) throws -> URL {
        if table.stage == stage { return outputDirectory.appendingPathComponent(table.file) }
        return try directory(of: table.stage).appendingPathComponent(table.file)
    }

    /// The output directory of an upstream stage the running stage lists as an input.
    package func directory(of upstreamStage: String) throws -> URL {
        guard let dir = upstream[upstreamStage] else {
            throw TonightError(.internal, "stage \(stage) reads \(upstreamStage)'s output but does not list it as an input", stage: stage)
        }
        return dir
    }

    /// Every row of an upstream table.
    package func read<R>(_ table: StageTable<R>) throws -> [R] {
        try BinaryTable.read(R.self, table: table.name, from: url(of: table))
    }

    /// Rows of an upstream table through a custom decoder (only the columns a stage needs).
    package func read<R, T>(_ table: StageTable<R>, row: (inout BinaryReader) throws -> T) throws -> [T] {
        try BinaryTable.read(R.self, table: table.name, from: url(of: table), row: row)
    }

    /// The rows of an upstream per-user table that the running stage owns (every row, unless
    /// it runs as a shard): `row` reads a row whole and returns nil for one whose id
    /// (UTF-8 bytes) `owned` refuses, so a shard never decodes the other shards' users.
    /// Decoded on every core (`BinaryTable.readParallel`; `skip` steps over one row).
    package func read<R, T>(
        _ table: StageTable<R>, skip: @Sendable (inout BinaryReader) throws -> Void,
        owned row: @Sendable (inout BinaryReader, (UnsafeRawBufferPointer) -> Bool) throws -> T?
    ) throws -> [T] {
        let shard = shard
        let owned: @Sendable (UnsafeRawBufferPointer) -> Bool = { shard?.owns(idBytes: $0) ?? true }
        return try BinaryTable.readParallel(R.self, table: table.name, from: url(of: table), skip: skip, some: { r in try row(&r, owned) })
    }

    /// The `users` rows the running stage owns, scanned once (`TicketsUsers.Scan`); the
    /// tickets stage then decodes them on every core straight into id order.
    package func scanTicketsUsers() throws -> TicketsUsers.Scan {
        let shard = shard
        return try TicketsUsers.Scan(url(of: StageTable<TicketsUser>.ticketsUsers), keep: { shard?.owns(idBytes: $0) ?? true })
    }

    /// Writes one of this stage's tables.
    package func write<R>(_ rows: [R], to table: StageTable<R>) throws {
        guard table.stage == stage else {
            throw TonightError(.internal, "stage \(stage) writes \(table.stage)'s \(table.name) table", stage: stage)
        }
        try BinaryTable.write(rows, table: table.name, to: url(of: table))
    }
}

extension Stage {
    /// Streams one of this stage's tables from a finished output directory as NDJSON.
    func dump<R>(_ table: StageTable<R>, from dir: URL, names: [String] = [], to sink: (ArraySlice<UInt8>) throws -> Void) throws {
        try dumpTable(R.self, table: table.name, from: dir, names: names, to: sink)
    }
}
