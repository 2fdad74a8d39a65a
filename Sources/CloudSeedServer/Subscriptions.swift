import CloudKitWire
import CloudSeed
import Foundation

/// `subscriptions/list`, `subscriptions/lookup` and `subscriptions/modify`: the request user's
/// subscriptions of a database, kept by ``Notifications`` while the server runs.
enum Subscriptions {
    static func list(_ request: DatabaseRequest, notifications: Notifications) -> String {
        let saved = notifications.subscriptions(of: subscriber(request), in: request.database)
        return JSONText.object([("subscriptions", JSONText.array(saved.map(\.json)))])
    }

    /// `subscriptions[{subscriptionID}]`: each subscription, or NOT_FOUND in its place.
    static func lookup(_ request: DatabaseRequest, notifications: Notifications) throws -> String {
        guard let entries = try request.json()["subscriptions"]?.items else {
            throw ServerError(.badRequest, "the request needs subscriptions, as [{\"subscriptionID\": \"…\"}]")
        }
        let saved = notifications.subscriptions(of: subscriber(request), in: request.database)
        let answers = entries.map { entry in
            let id = entry["subscriptionID"]?.string ?? ""
            guard let subscription = saved.first(where: { $0.id == id }) else {
                return ServerError(.notFound, "Subscription '\(id)' does not exist").json(first: ("subscriptionID", id))
            }
            return subscription.json
        }
        return JSONText.object([("subscriptions", JSONText.array(answers))])
    }

    /// `operations[{operationType: create | update | delete, subscription}]`: each subscription
    /// saved, `{subscriptionID, deleted: true}`, or its error.
    static func modify(_ request: DatabaseRequest, notifications: Notifications, store: ContainerStore) throws
        -> String
    {
        guard let entries = try request.json()["operations"]?.items else {
            throw ServerError(
                .badRequest, "the request needs operations, as [{\"operationType\": \"create\", \"subscription\": …}]")
        }
        let subscriber = subscriber(request)
        let answers = entries.map { entry -> String in
            let given = entry["subscription"]
            let id = given?["subscriptionID"]?.string ?? ""
            do {
                guard let given else { throw ServerError(.badRequest, "each operation needs a subscription") }
                switch entry["operationType"]?.string ?? "" {
                case "create", "update":
                    let subscription = try Subscription(given, request: request) { UUID().uuidString }
                    do {
                        try notifications.save(subscription, of: subscriber, store: store)
                    } catch let error as CloudSeedError {
                        throw ServerError(.badRequest, "the subscription's query: \(error.message)")
                    }
                    return subscription.json
                case "delete":
                    guard try notifications.delete(id, of: subscriber, in: request.database, store: store) else {
                        throw ServerError(.notFound, "Subscription '\(id)' does not exist")
                    }
                    return JSONText.object([("subscriptionID", JSONText.quoted(id)), ("deleted", "true")])
                case let other:
                    throw ServerError(.badRequest, "unknown operationType '\(other)'; use create, update or delete")
                }
            } catch let error as ServerError {
                return error.json(first: ("subscriptionID", id))
            } catch {
                return ServerError(.internalError, "\(error)").json(first: ("subscriptionID", id))
            }
        }
        return JSONText.object([("subscriptions", JSONText.array(answers))])
    }

    static func subscriber(_ request: DatabaseRequest) -> Notifications.Subscriber {
        Notifications.Subscriber(container: request.container, environment: request.environment, user: request.user)
    }
}
