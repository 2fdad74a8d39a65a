// The TripPlanner model as SwiftData classes: the same model as TripPlanner.xcdatamodeld, so
// `cloudseed schema from-model` prints the same schema from either.
import Foundation
import SwiftData

@Model
final class Destination {
    var country: String?
    var latitude: Double = 0.0
    var longitude: Double = 0.0
    var name: String = ""
    @Relationship(inverse: \Trip.destination) var trips: [Trip]?

    init(name: String, country: String? = nil) {
        self.name = name
        self.country = country
    }
}

@Model
final class Item {
    var packed: Bool = false
    var quantity: Int16 = 1
    var title: String = ""
    var trip: Trip?

    init(title: String) {
        self.title = title
    }
}

@Model
final class Person {
    var email: String?
    var id: UUID?
    var name: String = ""
    @Relationship(inverse: \Trip.companions) var trips: [Trip]?

    init(name: String) {
        self.name = name
    }
}

@Model
final class Trip {
    var budget: Double = 0.0
    var endDate: Date?
    var isFavorite: Bool = false
    var name: String = ""
    var notes: String?
    var startDate: Date?
    var companions: [Person]?
    var destination: Destination?
    @Relationship(deleteRule: .cascade, inverse: \Item.trip) var items: [Item]?

    init(name: String) {
        self.name = name
    }
}
