import CloudSeed

/// `users/current` and `users/caller`: the user the request acts as.
enum Users {
    static func current(_ request: DatabaseRequest) -> String {
        JSONText.object([("userRecordName", JSONText.quoted(request.user))])
    }
}
