/// The sections, records and fields of the feed (feed.md "Shape").
enum FeedSection: Int, CaseIterable {
    case artists, categories, venues, events

    var elementName: String {
        switch self {
        case .artists: return "Artists"
        case .categories: return "Categories"
        case .venues: return "Venues"
        case .events: return "EventsPricePoints"
        }
    }

    var recordName: String {
        switch self {
        case .artists: return "Artist"
        case .categories: return "Category"
        case .venues: return "Venue"
        case .events: return "Event"
        }
    }

    /// The name used in rejects, reports and dumps.
    var tableName: String {
        switch self {
        case .artists: return "artists"
        case .categories: return "categories"
        case .venues: return "venues"
        case .events: return "events"
        }
    }

    var fields: [FeedField] { FeedField.allCases.filter { $0.section == self } }
}

/// A field element inside a record.
enum FeedField: Int, CaseIterable {
    case artistCategory, artistImageURL, artistName, artistURL
    case categoryName, parentID
    case city, state, street, venueImageURL, venueName, venueURL, zipCode
    case artistIDs, categoryID, eventDate, eventStatus, eventTime, onsaleDate, onsaleTime
    case performanceName, presaleDate, presaleTime, priceRange, promoterID, purchaseRequestURL
    case starReviewCount, stars, venueID

    var section: FeedSection {
        switch self {
        case .artistCategory, .artistImageURL, .artistName, .artistURL: return .artists
        case .categoryName, .parentID: return .categories
        case .city, .state, .street, .venueImageURL, .venueName, .venueURL, .zipCode: return .venues
        default: return .events
        }
    }

    var elementName: String {
        switch self {
        case .artistCategory: return "ArtistCategory"
        case .artistImageURL: return "ArtistImageURL"
        case .artistName: return "ArtistName"
        case .artistURL: return "ArtistURL"
        case .categoryName: return "CategoryName"
        case .parentID: return "ParentID"
        case .city: return "City"
        case .state: return "State"
        case .street: return "Street"
        case .venueImageURL: return "VenueImageURL"
        case .venueName: return "VenueName"
        case .venueURL: return "VenueURL"
        case .zipCode: return "ZipCode"
        case .artistIDs: return "ArtistIDs"
        case .categoryID: return "CategoryID"
        case .eventDate: return "EventDate"
        case .eventStatus: return "EventStatus"
        case .eventTime: return "EventTime"
        case .onsaleDate: return "OnsaleDate"
        case .onsaleTime: return "OnsaleTime"
        case .performanceName: return "PerformanceName"
        case .presaleDate: return "PresaleDate"
        case .presaleTime: return "PresaleTime"
        case .priceRange: return "PriceRange"
        case .promoterID: return "PromoterID"
        case .purchaseRequestURL: return "PurchaseRequestURL"
        case .starReviewCount: return "StarReviewCount"
        case .stars: return "Stars"
        case .venueID: return "VenueID"
        }
    }

    /// A reference given as an empty element with an `ID` attribute.
    var isIDReference: Bool {
        self == .artistCategory || self == .parentID || self == .venueID
    }

    /// A URL whose `[=CAMEFROM=]` placeholder is replaced.
    var isURL: Bool {
        switch self {
        case .artistImageURL, .artistURL, .venueImageURL, .venueURL, .purchaseRequestURL: return true
        default: return false
        }
    }

    /// A typed date whose `Type` attribute matters.
    var isTypedDate: Bool { self == .onsaleDate || self == .presaleDate }

    /// Text content is captured (everything but the pure attribute references and the list).
    var capturesText: Bool { !isIDReference && self != .artistIDs }
}
