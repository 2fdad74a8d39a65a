/// CloudKit Web Services' `zones/modify` over a store: creates and deletes zones of a private or
/// shared database, in order, in one transaction. The public database has only its default zone,
/// and no database's default zone can be deleted.
package enum ZoneModification {
    package enum OperationType: String, CaseIterable, Sendable {
        case create, delete
    }

    package enum Outcome {
        case created(RecordZoneID)
        case deleted(RecordZoneID)
        case notFound(RecordZoneID)
        case refused(RecordZoneID, CloudSeedError)
    }

    /// Applies each operation to the zone its scope names.
    package static func apply(_ operations: [(OperationType, StoreScope)], to store: ContainerStore) throws
        -> [Outcome]
    {
        try store.exclusively {
            try store.backend.write { transaction in
                try operations.map { type, scope in
                    do {
                        try ScopeValidation.validate(scope)
                        guard scope.zoneID.zoneName != RecordZoneID.defaultZoneName else {
                            throw CloudSeedError(
                                .invalidOption, "the default zone is every database's own; it cannot be \(type)d")
                        }
                    } catch let error as CloudSeedError {
                        return .refused(scope.zoneID, error)
                    }
                    switch type {
                    case .create:
                        try transaction.createZone(scope)
                        return .created(scope.zoneID)
                    case .delete:
                        return try transaction.deleteZone(scope) ? .deleted(scope.zoneID) : .notFound(scope.zoneID)
                    }
                }
            }
        }
    }
}
