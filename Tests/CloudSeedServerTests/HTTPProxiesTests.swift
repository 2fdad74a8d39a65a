import CloudSeedClient
import Foundation
import Testing

/// Which proxy a push or pull goes through, read from the environment as curl reads it.
@Suite struct HTTPProxiesTests {
    let corporate = HTTPProxies.Proxy(host: "proxy.corp.example", port: 3128, user: nil, password: nil)

    @Test func httpsURLsGoThroughHTTPSProxyAndHTTPOnesThroughHTTPProxy() {
        let proxies = HTTPProxies(environment: [
            "HTTPS_PROXY": "http://proxy.corp.example:3128", "http_proxy": "plain.corp.example",
        ])
        #expect(proxies.proxy(for: URL(string: "https://api.apple-cloudkit.com/database")!) == corporate)
        #expect(
            proxies.proxy(for: URL(string: "http://seed.example:8080/")!)
                == HTTPProxies.Proxy(host: "plain.corp.example", port: 1080, user: nil, password: nil))
    }

    @Test func loopbackAndNoProxyHostsGoStraight() {
        let proxies = HTTPProxies(environment: [
            "https_proxy": "proxy.corp.example:3128", "http_proxy": "proxy.corp.example:3128",
            "no_proxy": " .internal.example, cdn.example:443",
        ])
        for url in [
            "http://127.0.0.1:8080/", "http://localhost:8080/", "https://a.internal.example/",
            "https://internal.example/", "https://cdn.example/x", "https://sub.cdn.example/x",
        ] {
            #expect(proxies.proxy(for: URL(string: url)!) == nil, "\(url)")
        }
        #expect(proxies.proxy(for: URL(string: "https://notcdn.example/")!) == corporate)
        #expect(HTTPProxies(environment: ["https_proxy": "proxy:1", "NO_PROXY": "*"]).proxy(for: corporateURL) == nil)
    }

    @Test func aProxysUserAndPasswordAreKeptDecoded() {
        let proxies = HTTPProxies(environment: ["https_proxy": "http://ann:p%40ss@proxy.corp.example:3128/"])
        #expect(
            proxies.proxy(for: corporateURL)
                == HTTPProxies.Proxy(host: "proxy.corp.example", port: 3128, user: "ann", password: "p@ss"))
    }

    @Test func noVariableMeansNoProxy() {
        #expect(HTTPProxies(environment: [:]).proxy(for: corporateURL) == nil)
        #expect(HTTPProxies(environment: ["https_proxy": ""]).proxy(for: corporateURL) == nil)
    }

    var corporateURL: URL { URL(string: "https://api.apple-cloudkit.com/database/1")! }
}
