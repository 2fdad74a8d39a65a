import Hummingbird

/// A request's context on the server: Hummingbird's own, and what ``CloudKitAuthentication``
/// found: the user the request acts as and its body, read once to check its signature.
struct CloudKitRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    var user = ""
    var body: [UInt8] = []

    init(source: Source) {
        coreContext = .init(source: source)
    }
}
