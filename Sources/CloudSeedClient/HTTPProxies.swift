package import Foundation

/// The proxies the environment names, as curl reads them: `https_proxy` (or `HTTPS_PROXY`) for
/// `https` URLs, `http_proxy` for `http` ones, none for the hosts `no_proxy` (or `NO_PROXY`) lists
/// (`*` for all, `example.com` for it and its subdomains), nor for loopback addresses.
package struct HTTPProxies: Sendable {
    /// A proxy server: where it is, and who to tell it the client is.
    package struct Proxy: Sendable, Equatable {
        package var host: String
        package var port: Int
        package var user: String?
        package var password: String?

        package init(host: String, port: Int, user: String?, password: String?) {
            self.host = host
            self.port = port
            self.user = user
            self.password = password
        }
    }

    let https: Proxy?
    let http: Proxy?
    let bypassed: [String]

    package init(environment: [String: String]) {
        https = (environment["https_proxy"] ?? environment["HTTPS_PROXY"]).flatMap(Self.proxy(from:))
        http = environment["http_proxy"].flatMap(Self.proxy(from:))
        bypassed = (environment["no_proxy"] ?? environment["NO_PROXY"] ?? "").split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespaces).lowercased()
        }.filter { !$0.isEmpty }
    }

    /// The proxy a request to `url` goes through, or `nil` where it goes straight to its host.
    package func proxy(for url: URL) -> Proxy? {
        guard let host = url.host?.lowercased(), !isBypassed(host) else { return nil }
        switch url.scheme?.lowercased() {
        case "https": return https
        case "http": return http
        default: return nil
        }
    }

    private func isBypassed(_ host: String) -> Bool {
        if ["localhost", "127.0.0.1", "::1", "[::1]"].contains(host) || host.hasPrefix("127.") { return true }
        return bypassed.contains { entry in
            if entry == "*" { return true }
            let domain = entry.hasPrefix(".") ? String(entry.dropFirst()) : entry
            let name = domain.split(separator: ":", maxSplits: 1).first.map(String.init) ?? domain
            return host == name || host.hasSuffix("." + name)
        }
    }

    /// `http://user:password@proxy.example:3128`, or `proxy.example:3128`; port 1080 where none is given.
    private static func proxy(from text: String) -> Proxy? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty,
            let url = URL(string: trimmed.contains("://") ? trimmed : "http://" + trimmed),
            let host = url.host, !host.isEmpty
        else { return nil }
        return Proxy(
            host: host, port: url.port ?? 1080, user: url.user?.removingPercentEncoding,
            password: url.password?.removingPercentEncoding)
    }
}

extension HTTPProxies {
    /// The proxies of this process's environment.
    static let current = HTTPProxies(environment: ProcessInfo.processInfo.environment)
}
