import AsyncHTTPClient
import Foundation

extension HTTPClient {
    /// The client a request to `url` goes through: straight to its host, or through the proxy the
    /// environment names for it (``HTTPProxies``). Each lives as long as the process.
    static func forURL(_ url: URL) -> HTTPClient {
        guard HTTPProxies.current.proxy(for: url) != nil else { return direct }
        return (url.scheme?.lowercased() == "https" ? throughHTTPSProxy : throughHTTPProxy) ?? direct
    }

    private static let direct = requests(through: nil)
    private static let throughHTTPSProxy = HTTPProxies.current.https.map(requests(through:))
    private static let throughHTTPProxy = HTTPProxies.current.http.map(requests(through:))

    private static func requests(through proxy: HTTPProxies.Proxy?) -> HTTPClient {
        var configuration = HTTPClient.Configuration.singletonConfiguration
        // A connection that fails fails its request, to be tried again as ``RetryPolicy`` says.
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.proxy = proxy.map { proxy in
            .server(
                host: proxy.host, port: proxy.port,
                authorization: proxy.user.map { .basic(username: $0, password: proxy.password ?? "") })
        }
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }
}
