import TonightBase

/// A record that declares its fields once, in `encode(to:)`; `RecordEncoder` writes that
/// declaration either as the compact binary table form or as a JSON object (dumps, rejects,
/// snapshot records), so the two forms cannot drift apart.
package protocol EncodableRecord: Sendable {
    /// Lists every field once, in order, through `e` (see `RecordEncoder` for the field kinds).
    func encode(to e: inout RecordEncoder)
}

/// A row type of an intermediate table: its `encode(to:)` is the schema; `init(from:)` reads
/// the binary form back, in the same order, and throws (never traps) on corrupt bytes.
package protocol BinaryRecord: EncodableRecord {
    /// Bumped whenever the encoding changes, so an old file is refused instead of misread.
    static var schemaVersion: Int { get }
    init(from reader: inout BinaryReader) throws
}

/// Writes one record's declared fields in one of two forms.
///
/// - binary: names are ignored; integers are zig-zag varints, doubles 8 little-endian bytes,
///   strings and lists length-prefixed, optionals a flag byte then the value, event ids 8
///   fixed bytes (`BinaryWriter`).
/// - JSON: `"name":value` with the field names of snapshots.md; absent optionals are omitted
///   (never null), instants are ISO 8601, event ids 16 hex digits, cents decimals.
///
/// `key` fields exist only in JSON, `internal` ones only in binary (source line numbers,
/// table indices). A record composed of another can insert its own fields between the
/// other's at the insertion points that record offers.
package struct RecordEncoder {
    package enum Form: Sendable { case binary, json }

    package let form: Form
    package var binary: BinaryWriter
    package var json: JSONWriter
    /// What `references` fields print in JSON: the ids of the table the indices point into.
    package var names: [String]

    /// An encoder appending the binary form to `writer` (take it back with `binary`).
    package init(binary writer: BinaryWriter) {
        form = .binary
        binary = writer
        json = JSONWriter(capacity: 0)
        names = []
    }

    /// An encoder writing JSON objects; `names` resolves `references` fields.
    package init(json writer: JSONWriter = JSONWriter(), names: [String] = []) {
        form = .json
        binary = BinaryWriter(capacity: 0)
        json = writer
        self.names = names
    }

    /// Writes `record` as one JSON object (`{…}`) into `json`.
    package mutating func object(_ record: some EncodableRecord) {
        json.beginObject()
        record.encode(to: &self)
        json.endObject()
    }

    /// The JSON object of `record` as bytes.
    package static func jsonBytes(_ record: some EncodableRecord, names: [String] = []) -> [UInt8] {
        var e = RecordEncoder(names: names)
        e.object(record)
        return e.json.take()
    }

    /// The binary form of `record` as bytes.
    package static func binaryBytes(_ record: some EncodableRecord) -> [UInt8] {
        var e = RecordEncoder(binary: BinaryWriter(capacity: 64))
        record.encode(to: &e)
        return e.binary.bytes
    }

    // MARK: Plain fields

    @inline(__always)
    package mutating func field(_ name: String, _ v: Int64) {
        if form == .binary { binary.write(v) } else { json.field(name, v) }
    }

    @inline(__always)
    package mutating func field(_ name: String, _ v: Int64?) {
        if form == .binary { binary.write(v) } else { json.field(name, v) }
    }

    @inline(__always)
    package mutating func field(_ name: String, _ v: Int) { field(name, Int64(v)) }

    @inline(__always)
    package mutating func field(_ name: String, _ v: Int?) { field(name, v.map(Int64.init)) }

    @inline(__always)
    package mutating func field(_ name: String, _ v: Double) {
        if form == .binary { binary.write(v) } else { json.field(name, v) }
    }

    @inline(__always)
    package mutating func field(_ name: String, _ v: Double?) {
        if form == .binary { binary.write(v) } else { json.field(name, v) }
    }

    /// A number whose JSON text is no more precise than `precision` (the binary row keeps
    /// every bit).
    @inline(__always)
    package mutating func field(_ name: String, _ v: Double, _ precision: NumberPrecision) {
        if form == .binary { binary.write(v) } else { json.field(name, v, precision) }
    }

    @inline(__always)
    package mutating func field(_ name: String, _ v: Double?, _ precision: NumberPrecision) {
        if form == .binary { binary.write(v) } else { json.field(name, v, precision) }
    }

    @inline(__always)
    package mutating func field(_ name: String, _ v: String) {
        if form == .binary { binary.write(v) } else { json.field(name, v) }
    }

    @inline(__always)
    package mutating func field(_ name: String, _ v: String?) {
        if form == .binary { binary.write(v) } else { json.field(name, v) }
    }

    /// A flag; in JSON written only when true (snapshots.md: `timeTBA` is present or absent).
    @inline(__always)
    package mutating func flag(_ name: String, _ v: Bool) {
        if form == .binary { binary.write(v) } else if v { json.field(name, true) }
    }

    package mutating func field(_ name: String, _ v: [Int64]) {
        if form == .binary { binary.write(v) } else { json.field(name, ints: v) }
    }

    package mutating func field(_ name: String, _ v: [String]) {
        if form == .binary {
            binary.write(UInt64(v.count))
            for s in v { binary.write(s) }
        } else {
            json.field(name, strings: v)
        }
    }

    // MARK: Fields with a text form

    /// An event id: 8 fixed bytes, or its 16 upper-case hex digits.
    @inline(__always)
    package mutating func eventID(_ name: String, _ v: UInt64) {
        if form == .binary { binary.writeFixed(v) } else { json.field(name, EventID.format(v)) }
    }

    /// A list of event ids.
    package mutating func eventIDs(_ name: String, _ v: [UInt64]) {
        if form == .binary {
            binary.write(UInt64(v.count))
            for id in v { binary.writeFixed(id) }
        } else {
            json.field(name, strings: v.map(EventID.format))
        }
    }

    /// A UTC instant (seconds since the epoch), `YYYY-MM-DDTHH:MM:SSZ` in JSON.
    @inline(__always)
    package mutating func instant(_ name: String, _ v: Int64) {
        if form == .binary { binary.write(v) } else { json.field(name, CivilTime.formatUTC(v)) }
    }

    /// An optional UTC instant.
    @inline(__always)
    package mutating func instant(_ name: String, _ v: Int64?) {
        if form == .binary { binary.write(v) } else if let v { json.field(name, CivilTime.formatUTC(v)) }
    }

    /// A wall-clock time without zone (seconds since the epoch as if UTC), `YYYY-MM-DDTHH:MM:SS`.
    @inline(__always)
    package mutating func localTime(_ name: String, _ v: Int64?) {
        if form == .binary { binary.write(v) } else if let v { json.field(name, CivilTime.formatLocal(v)) }
    }

    /// A calendar date as days since 1970-01-01, `YYYY-MM-DD` in JSON.
    @inline(__always)
    package mutating func date(_ name: String, days v: Int?) {
        if form == .binary { binary.write(v.map(Int64.init)) } else if let v { json.field(name, CivilTime.formatDate(days: v)) }
    }

    /// An amount in cents, a decimal number in JSON.
    @inline(__always)
    package mutating func cents(_ name: String, _ v: Int64?) {
        if form == .binary { binary.write(v) } else if let v { json.field(name, Double(v) / 100) }
    }

    /// A small closed set: its code byte, or its name.
    @inline(__always)
    package mutating func enumeration(_ name: String, code: UInt8, text: @autoclosure () -> String) {
        if form == .binary { binary.write(code) } else { json.field(name, text()) }
    }

    /// Indices into another table: varints, or that table's ids (`names`).
    package mutating func references(_ name: String, _ v: [Int32]) {
        if form == .binary {
            binary.write(UInt64(v.count))
            for i in v { binary.write(Int64(i)) }
        } else {
            json.field(name, strings: v.map { names.indices.contains(Int($0)) ? names[Int($0)] : "?" })
        }
    }

    /// A record inside this one: inline in binary, an object in JSON.
    package mutating func nested(_ name: String, _ v: some EncodableRecord) {
        if form == .binary {
            v.encode(to: &self)
        } else {
            json.key(name)
            object(v)
        }
    }

    /// An optional record: a flag byte then the record, or an object (omitted when absent).
    package mutating func nested(_ name: String, _ v: (some EncodableRecord)?) {
        if form == .binary {
            binary.write(v != nil)
            if let v { v.encode(to: &self) }
        } else if let v {
            json.key(name)
            object(v)
        }
    }

    // MARK: One form only

    /// The record's key (snapshots.md): JSON only, first field.
    @inline(__always)
    package mutating func key(_ v: @autoclosure () -> String) {
        if form == .json { json.field("key", v()) }
    }

    /// A value only the binary form carries (a source line, a table index).
    @inline(__always)
    package mutating func `internal`(_ v: Int64) {
        if form == .binary { binary.write(v) }
    }

    /// An optional value only the binary form carries.
    @inline(__always)
    package mutating func `internal`(_ v: Int64?) {
        if form == .binary { binary.write(v) }
    }

    /// A text only the binary form carries (a normalised copy of a published field).
    @inline(__always)
    package mutating func `internal`(_ v: String) {
        if form == .binary { binary.write(v) }
    }
}
