import TonightCore
import TonightBase

/// A fault planted in a `--with-faults` copy, with where it is and what must happen to it.
package struct PlantedFault: Codable, Sendable, Equatable {
    package var file: String
    package var line: Int
    package var reason: String
    package var section: String?
    package var id: String?
}

/// Writes a generated feed in the real file's exact layout: tab indentation, `ID="…" >`,
/// children in alphabetical order, CDATA URLs with `[=CAMEFROM=]`, empty typed dates.
struct FeedXMLWriter {
    let feed: GeneratedFeed
    var rng: SplitMix64

    static func slug(_ s: String) -> String {
        var out = ""
        for ch in s.unicodeScalars {
            if ch.isASCII && (ch.properties.isAlphabetic || ("0"..."9").contains(ch)) { out.unicodeScalars.append(ch) }
            else if ch == " " && !out.hasSuffix("-") { out.append("-") }
        }
        return out
    }

    /// Stray white space around ~3 % of venue text fields (trimmed by the parser).
    private mutating func stray(_ s: String) -> String {
        rng.chance(0.03) ? (rng.chance(0.5) ? " " + s : s + "  ") : s
    }

    /// The feed text; with `faults`, planted bad records are added and reported.
    mutating func render(faults: Bool, file: String) -> (ByteBuffer, [PlantedFault]) {
        var b = ByteBuffer(capacity: feed.artists.count * 420 + feed.events.count * 1000 + (1 << 20))
        var planted: [PlantedFault] = []
        b.add("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\n<Ticketmaster Country=\"United States Of America\">\n<Artists>\n")
        for (i, a) in feed.artists.enumerated() {
            artist(&b, a)
            if faults && i == feed.artists.count / 2 {
                planted.append(PlantedFault(file: file, line: b.currentLine, reason: "duplicate-id", section: "artists", id: String(a.id)))
                artist(&b, a)
            }
        }
        b.add("</Artists>\n\n<Categories>\n")
        for c in feed.categories {
            b.add("\t<Category ID=\"")
            b.add(c.id)
            b.add("\" >\n\t\t<CategoryName>")
            b.addEscaped(c.name)
            b.add("</CategoryName>\n")
            if let p = c.parent {
                b.add("\t\t<ParentID ID=\"")
                b.add(p)
                b.add("\" />\n")
            } else {
                b.add("\t\t<ParentID ID=\"\" />\n")
            }
            b.add("\t</Category>\n")
        }
        b.add("</Categories>\n<Venues>\n")
        for (i, v) in feed.venues.enumerated() {
            venue(&b, v, name: true)
            if faults && i == feed.venues.count / 3 {
                var bad = v
                bad.id = 990_000_001
                planted.append(PlantedFault(file: file, line: b.currentLine, reason: "missing-field", section: "venues", id: String(bad.id)))
                venue(&b, bad, name: false)
            }
        }
        b.add("</Venues>\n<EventsPricePoints>\n")
        for (i, e) in feed.events.enumerated() {
            event(&b, e, venueID: feed.venues[e.venue].id, date: nil)
            if faults && i == feed.events.count / 4 {
                var bad = e
                bad.id = e.id ^ 0x5A5A_5A5A
                planted.append(PlantedFault(file: file, line: b.currentLine, reason: "unknown-venue", section: "events", id: EventID.format(bad.id)))
                event(&b, bad, venueID: 999_999_999, date: nil)
                bad.id = e.id ^ 0xA5A5_A5A5
                planted.append(PlantedFault(file: file, line: b.currentLine, reason: "bad-date", section: "events", id: EventID.format(bad.id)))
                event(&b, bad, venueID: feed.venues[e.venue].id, date: "2026-02-30")
            }
        }
        b.add("</EventsPricePoints>\n</Ticketmaster>\n")
        return (b, planted)
    }

    private mutating func artist(_ b: inout ByteBuffer, _ a: GeneratedFeed.Artist) {
        b.add("\t<Artist ID=\"")
        b.add(a.id)
        b.add("\" >\n")
        if let c = a.category {
            b.add("\t\t<ArtistCategory ID=\"")
            b.add(c)
            b.add("\" />\n")
        }
        if a.hasImage {
            b.add("\t\t<ArtistImageURL>http://media.ticketmaster.com/tmimages/TM_GenCatImgs_Music_BW.jpg</ArtistImageURL>\n")
        }
        b.add("\t\t<ArtistName>")
        b.addEscaped(rng.chance(0.01) ? " " + a.name : a.name)
        b.add("</ArtistName>\n\t\t<ArtistURL><![CDATA[http://www.ticketmaster.com/")
        b.add(Self.slug(a.name))
        b.add("-tickets/artist/")
        b.add(a.id)
        b.add("?camefrom=[=CAMEFROM=]&brand=none]]></ArtistURL>\n\t</Artist>\n")
    }

    private mutating func venue(_ b: inout ByteBuffer, _ v: GeneratedFeed.Venue, name: Bool) {
        b.add("\t<Venue ID=\"")
        b.add(v.id)
        b.add("\" >\n")
        if let c = v.city {
            b.add("\t\t<City>")
            b.addEscaped(stray(c))
            b.add("</City>\n")
        }
        if let s = v.state {
            b.add("\t\t<State>")
            b.addEscaped(stray(s))
            b.add("</State>\n")
        }
        if let s = v.street {
            b.add("\t\t<Street>")
            b.addEscaped(stray(s))
            b.add("</Street>\n")
        }
        b.add("\t\t<VenueImageURL>http://media.ticketmaster.com/tmimages/TM_GenVenueImg_BW.jpg</VenueImageURL>\n")
        if name {
            b.add("\t\t<VenueName>")
            b.addEscaped(stray(v.name))
            b.add("</VenueName>\n")
        }
        b.add("\t\t<VenueURL><![CDATA[http://www.ticketmaster.com/")
        b.add(Self.slug(v.name))
        b.add("-tickets-")
        b.add(Self.slug(v.city ?? ""))
        b.add("/venue/")
        b.add(v.id)
        b.add("?camefrom=[=CAMEFROM=]&brand=none]]></VenueURL>\n")
        if let z = v.zip {
            b.add("\t\t<ZipCode>")
            b.addEscaped(stray(z))
            b.add("</ZipCode>\n")
        }
        b.add("\t</Venue>\n")
    }

    private mutating func event(_ b: inout ByteBuffer, _ e: GeneratedFeed.Event, venueID: Int64, date: String?) {
        b.add("\t<Event ID=\"")
        b.add(EventID.format(e.id))
        b.add("\" >\n\t\t<ArtistIDs>\n")
        for (i, a) in e.artists.enumerated() {
            b.add("\t\t\t<ArtistID ID=\"")
            b.add(a)
            b.add(i == 0 ? "\" Type=\"Primary\" />\n" : "\" Type=\"Secondary\" />\n")
        }
        b.add("\t\t</ArtistIDs>\n")
        if let c = e.category {
            b.add("\t\t<CategoryID>")
            b.add(c)
            b.add("</CategoryID>\n")
        }
        let day = Int(CivilTime.floorDiv(e.startsAt, 86_400))
        b.add("\t\t<EventDate Type=\"DEF\" >")
        b.add(date ?? CivilTime.formatDate(days: day))
        b.add("</EventDate>\n")
        if let s = e.status {
            b.add("\t\t<EventStatus>")
            b.add(s)
            b.add("</EventStatus>\n")
        }
        if !e.timeTBA {
            b.add("\t\t<EventTime>")
            b.add(String(CivilTime.formatLocal(e.startsAt).suffix(8)))
            b.add("</EventTime>\n")
        }
        typedDate(&b, "Onsale", e.onsale)
        b.add("\t\t<PerformanceName>")
        b.addEscaped(e.name)
        b.add("</PerformanceName>\n")
        typedDate(&b, "Presale", e.presale)
        if let p = e.price {
            b.add("\t\t<PriceRange>")
            b.add(p)
            b.add("</PriceRange>\n")
        }
        if let p = e.promoter {
            b.add("\t\t<PromoterID>")
            b.add(p)
            b.add("</PromoterID>\n")
        }
        b.add("\t\t<PurchaseRequestURL><![CDATA[http://www.ticketmaster.com/event/")
        b.add(EventID.format(e.id))
        b.add("?camefrom=[=CAMEFROM=]&brand=none]]></PurchaseRequestURL>\n")
        if let r = e.reviews {
            b.add("\t\t<StarReviewCount>")
            b.add(r)
            b.add("</StarReviewCount>\n")
        }
        if let s = e.stars {
            b.add("\t\t<Stars>")
            b.add(s)
            b.add("</Stars>\n")
        }
        b.add("\t\t<VenueID ID=\"")
        b.add(venueID)
        b.add("\" />\n\t</Event>\n")
    }

    /// kind 0 unknown (empty `DEF` or `Type=""`), 1 defined, 2 `NOW`.
    private mutating func typedDate(_ b: inout ByteBuffer, _ prefix: StaticString, _ d: (kind: Int, at: Int64)) {
        switch d.kind {
        case 2:
            b.add("\t\t<")
            b.add(prefix)
            b.add("Date Type=\"NOW\" ></")
            b.add(prefix)
            b.add("Date>\n")
        case 1:
            b.add("\t\t<")
            b.add(prefix)
            b.add("Date Type=\"DEF\" >")
            b.add(CivilTime.formatDate(days: Int(CivilTime.floorDiv(d.at, 86_400))))
            b.add("</")
            b.add(prefix)
            b.add("Date>\n\t\t<")
            b.add(prefix)
            b.add("Time>")
            b.add(String(CivilTime.formatLocal(d.at).suffix(8)))
            b.add("</")
            b.add(prefix)
            b.add("Time>\n")
        default:
            b.add("\t\t<")
            b.add(prefix)
            b.add(rng.chance(0.5) ? "Date Type=\"DEF\" />\n" : "Date Type=\"\" />\n")
        }
    }
}
