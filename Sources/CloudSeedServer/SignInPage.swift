/// The sign-in page a 421 `AUTHENTICATION_REQUIRED` answer's `redirectURL` leads to, standing in for
/// Apple's: a developer picks one of the server's users (`--users`) or names any, and is given a
/// `ckWebAuthToken` for that user, as CloudKit's sign-in gives one. The token goes back to the page
/// that opened this one (`postMessage`, as CloudKit JS listens for it), to the `returnTo` URL of
/// the query string (with `ckWebAuthToken` added), or is shown.
enum SignInPage {
    /// Where the server serves it.
    static let path = "/signin"

    /// The page, with a button for each of `users`.
    static func html(users: [String]) -> String {
        let buttons = users.map { #"<button type="button" data-user="\#(escaped($0))">\#(escaped($0))</button>"# }
        return #"""
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <title>Sign in — cloudseed</title>
            <style>
              body { font: 15px/1.4 system-ui, sans-serif; max-width: 420px; margin: 48px auto; color: #1d1d1f; }
              button { font: inherit; padding: 6px 14px; margin: 4px 4px 4px 0; }
              input { font: inherit; padding: 5px; }
              #signed-in { margin-top: 16px; }
              code { background: #f5f5f7; padding: 2px 4px; word-break: break-all; }
            </style>
            </head>
            <body>
            <h1>Sign in to the local CloudKit</h1>
            <p>Pick a user, or name one. Each user has a private database of their own.</p>
            <div id="users">\#(buttons.joined())</div>
            <form id="named"><input id="name" placeholder="any name" aria-label="user name">
            <button type="submit">Sign in</button></form>
            <div id="signed-in"></div>
            <script>
            function signIn(name) {
              if (!name) return;
              const token = name;
              if (window.opener) window.opener.postMessage({ ckWebAuthToken: token, ckSession: token }, "*");
              const back = new URLSearchParams(location.search).get("returnTo");
              if (back) {
                const url = new URL(back, location.href);
                url.searchParams.set("ckWebAuthToken", token);
                location.href = url.toString();
                return;
              }
              const shown = document.getElementById("signed-in");
              shown.textContent = "Signed in as " + name + ". ckWebAuthToken: ";
              const code = document.createElement("code");
              code.id = "token";
              code.textContent = token;
              shown.appendChild(code);
            }
            for (const button of document.querySelectorAll("[data-user]")) {
              button.addEventListener("click", () => signIn(button.dataset.user));
            }
            document.getElementById("named").addEventListener("submit", (event) => {
              event.preventDefault();
              signIn(document.getElementById("name").value.trim());
            });
            </script>
            </body>
            </html>
            """#
    }

    private static func escaped(_ text: String) -> String {
        var escaped = ""
        for character in text.unicodeScalars {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return escaped
    }
}
