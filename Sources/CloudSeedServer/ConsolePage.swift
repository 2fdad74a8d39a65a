/// The console at `/`: the store's container environments, record types with their fields and
/// indexes, a record table per type with the filters and sorts the schema allows, a record's fields
/// (references as links, assets shown, locations as coordinates) and the schema in CKSL. One page
/// of HTML, CSS and JavaScript served by the binary, no build step and nothing fetched from
/// elsewhere. Its state is in the URL's fragment (`#c=…&e=…&type=Artwork&filter=price,GREATER_THAN,1000`),
/// so every view can be bookmarked; the page's query string (`?ckAPIToken=…`) goes with its requests.
/// Its editing (records, and the development schema's fields and indexes) is ``ConsoleEditor``'s.
enum ConsolePage {
    static let html = #"""
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <title>cloudseed console</title>
        <style>
          body { font: 14px/1.4 system-ui, sans-serif; margin: 0; display: flex; min-height: 100vh; color: #1d1d1f; }
          nav { width: 260px; background: #f5f5f7; padding: 12px 16px; border-right: 1px solid #ddd; }
          nav h1 { font-size: 16px; margin: 0 0 12px; }
          nav h2 { font-size: 12px; text-transform: uppercase; color: #6e6e73; margin: 16px 0 4px; }
          nav a { display: block; padding: 2px 0; color: #0066cc; text-decoration: none; }
          nav a.selected { font-weight: 600; }
          main { flex: 1; padding: 12px 24px; overflow: auto; }
          table { border-collapse: collapse; margin: 8px 0 16px; }
          th, td { border-bottom: 1px solid #e5e5ea; padding: 4px 10px; text-align: left; vertical-align: top; }
          th { font-size: 12px; color: #6e6e73; }
          form { display: flex; gap: 6px; align-items: center; margin: 8px 0; flex-wrap: wrap; }
          .error { color: #c00; }
          .muted { color: #6e6e73; }
          img.asset { max-width: 320px; max-height: 240px; border: 1px solid #ddd; }
          pre { background: #f5f5f7; padding: 12px; }
          #record { border-top: 2px solid #ddd; margin-top: 8px; }
        </style>
        </head>
        <body>
        <nav id="nav"><h1>cloudseed</h1></nav>
        <main id="main"><p class="muted">Loading…</p></main>
        <script src="/console-editor.js"></script>
        <script>
        const auth = location.search;
        const main = document.getElementById("main");
        const nav = document.getElementById("nav");
        const esc = (text) => String(text).replace(/[&<>"']/g, (c) => "&#" + c.charCodeAt(0) + ";");

        function state() {
          const values = Object.fromEntries(new URLSearchParams(location.hash.slice(1)));
          return { c: values.c, e: values.e || "development", d: values.d || "public", z: values.z, type: values.type,
                   filter: values.filter, sort: values.sort, record: values.record, view: values.view, edit: values.edit };
        }
        function link(changes) {
          const next = Object.assign(state(), changes);
          const values = Object.entries(next).filter(([, v]) => v !== undefined && v !== null && v !== "");
          return "#" + new URLSearchParams(values).toString();
        }
        async function api(path, body) {
          const response = await fetch(path + auth, body === undefined ? {} :
            { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
          const json = await response.json();
          if (json.redirectURL) signInLink(json.redirectURL);
          if (!response.ok) throw new Error(json.serverErrorCode + ": " + json.reason);
          return json;
        }
        // Where a request needs a signed-in user: a link to the sign-in page, which comes back here
        // with the user's ckWebAuthToken in the query string the page's requests carry.
        function signInLink(redirectURL) {
          const url = new URL(redirectURL);
          url.searchParams.set("returnTo", location.href);
          const found = document.getElementById("sign-in");
          const link = found || document.createElement("a");
          link.id = "sign-in";
          link.href = url.toString();
          link.textContent = "Sign in";
          if (!found) nav.appendChild(link);
        }
        const database = (s) => "/database/1/" + encodeURIComponent(s.c) + "/" + s.e + "/" + s.d;
        // The zone of the requests: the default zone unless one is chosen.
        const zoneID = (s) => (s.z ? { zoneName: s.z } : undefined);
        // Core Data keeps a link as the linked record's name (CD_ records), a many-to-many pair as two.
        const recordNames = /^[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}(:[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12})?$/;

        function show(field, record) {
          const value = field.value;
          switch (field.type) {
            case "TIMESTAMP": return esc(new Date(value).toISOString());
            case "REFERENCE": return '<a href="' + esc(link({ record: value.recordName })) + '">' + esc(value.recordName) + "</a>";
            case "LOCATION": return esc(value.latitude + ", " + value.longitude);
            case "ASSETID":
              return record ? '<img class="asset" alt="asset" src="' + esc(value.downloadURL) + '" onload="this.dataset.loaded=\'true\'">'
                            : '<a href="' + esc(value.downloadURL) + '">' + esc(value.size) + " bytes</a>";
            case "BYTES": return esc(value.length + " Base64 characters");
            case "STRING":
              if (recordNames.test(value)) {
                return value.split(":").map((name) => '<a class="link" href="' + esc(link({ record: name })) + '">' + esc(name) + "</a>").join(":");
              }
          }
          if (Array.isArray(value)) return value.map((item) => show({ type: field.type.replace("_LIST", ""), value: item })).join(", ");
          return esc(value);
        }

        async function render() {
          const s = state();
          const { environments } = await api("/console/environments");
          nav.innerHTML = "<h1>cloudseed</h1><h2>Containers</h2>" + environments.map((env) =>
            '<a class="' + (env.container === s.c && env.environment === s.e ? "selected" : "") + '" href="' +
            esc(link({ c: env.container, e: env.environment, type: "", filter: "", sort: "", record: "", view: "" })) + '">' +
            esc(env.container) + " <span class=muted>" + esc(env.environment) + "</span></a>").join("");
          if (!s.c) { main.innerHTML = "<p>Choose a container environment.</p>"; return; }
          const schema = await api("/console/schema/" + encodeURIComponent(s.c) + "/" + s.e);
          const counts = {};
          for (const env of environments.filter((env) => env.container === s.c && env.environment === s.e)) {
            for (const zone of env.zones.filter((zone) => zone.database === s.d && zone.zoneName === (s.z || "_defaultZone"))) {
              for (const [type, count] of Object.entries(zone.recordCounts)) counts[type] = (counts[type] || 0) + count;
            }
          }
          nav.innerHTML += "<h2>Database</h2>" + ["public", "private", "shared"].map((d) =>
            '<a class="' + (d === s.d ? "selected" : "") + '" href="' + esc(link({ d, z: "", record: "" })) + '">' + d + "</a>").join("") +
            "<h2>Zones</h2>" + ["_defaultZone"].concat(environments.filter((env) => env.container === s.c && env.environment === s.e)
              .flatMap((env) => env.zones.filter((zone) => zone.database === s.d && zone.zoneName !== "_defaultZone").map((zone) => zone.zoneName)))
              .filter((name, index, names) => names.indexOf(name) === index).map((name) =>
              '<a class="' + (name === (s.z || "_defaultZone") ? "selected" : "") + '" href="' +
              esc(link({ z: name === "_defaultZone" ? "" : name, record: "" })) + '">' + esc(name) + "</a>").join("") +
            "<h2>Record types</h2>" + schema.recordTypes.map((type) =>
            '<a class="' + (type.name === s.type ? "selected" : "") + '" href="' +
            esc(link({ type: type.name, filter: "", sort: "", record: "", view: "" })) + '">' + esc(type.name) +
            ' <span class="muted">' + (counts[type.name] || 0) + "</span></a>").join("") +
            '<h2>Schema</h2><a href="' + esc(link({ view: "schema", record: "" })) + '">CKSL</a>';
          if (s.view === "schema") { main.innerHTML = '<h2>Schema</h2><pre id="cksl">' + esc(schema.cksl) + "</pre>"; return; }
          const type = schema.recordTypes.find((type) => type.name === s.type);
          if (!type) { main.innerHTML = "<p>Choose a record type.</p>"; return; }
          await renderType(s, type);
        }

        async function renderType(s, type) {
          const userFields = type.fields.filter((f) => !f.name.startsWith("___"));
          const queryable = type.fields.filter((f) => f.options.includes("QUERYABLE") || f.options.includes("SORTABLE"));
          const sortable = type.fields.filter((f) => f.options.includes("SORTABLE"));
          const [filterField, comparator, ...rest] = (s.filter || "").split(",");
          const filterValue = rest.join(",");
          let html = "<h2>" + esc(type.name) + "</h2><table><tr><th>field</th><th>type</th><th>indexes</th></tr>" +
            userFields.map((f) => "<tr><td>" + esc(f.name) + "</td><td>" + esc(f.type) + "</td><td>" + esc(f.options.join(" ")) + "</td></tr>").join("") +
            "</table>" + schemaForms(type) + '<p><a id="new-record" href="' + esc(link({ edit: "new", record: "" })) + '">New record</a></p>';
          const comparators = ["EQUALS", "NOT_EQUALS", "LESS_THAN", "LESS_THAN_OR_EQUALS", "GREATER_THAN", "GREATER_THAN_OR_EQUALS", "BEGINS_WITH"];
          html += '<form id="filter">Filter <select name="field"><option value="">(none)</option>' +
            queryable.filter((f) => !f.name.startsWith("___")).map((f) => '<option' + (f.name === filterField ? " selected" : "") + ">" + esc(f.name) + "</option>").join("") +
            '</select><select name="comparator">' + comparators.map((c) => "<option" + (c === comparator ? " selected" : "") + ">" + c + "</option>").join("") +
            '</select><input name="value" value="' + esc(filterValue) + '"> Sort <select name="sort"><option value="">(record name)</option>' +
            sortable.filter((f) => !f.name.startsWith("___")).flatMap((f) => [f.name, "-" + f.name]).map((name) =>
              "<option" + (name === s.sort ? " selected" : "") + ' value="' + esc(name) + '">' + esc(name.startsWith("-") ? name.slice(1) + " descending" : name) + "</option>").join("") +
            '</select><button>Query</button></form>';
          const query = { recordType: type.name };
          if (filterField) {
            const field = type.fields.find((f) => f.name === filterField);
            const numeric = field && /INT64|DOUBLE|TIMESTAMP/.test(field.type);
            query.filterBy = [{ comparator, fieldName: filterField, fieldValue: { value: numeric ? Number(filterValue) : filterValue } }];
          }
          if (s.sort) query.sortBy = [{ fieldName: s.sort.replace(/^-/, ""), ascending: !s.sort.startsWith("-") }];
          try {
            const { records } = await api(database(s) + "/records/query", { query, resultsLimit: 200, zoneID: zoneID(s) });
            // Up to six columns, the indexed fields first: those the table can be filtered and sorted by.
            const columns = userFields.filter((f) => !f.type.startsWith("LIST") && f.type !== "ASSET" && f.type !== "BYTES")
              .sort((a, b) => (b.options.length > 0) - (a.options.length > 0)).slice(0, 6);
            html += '<table id="records"><thead><tr><th>recordName</th>' + columns.map((f) => "<th>" + esc(f.name) + "</th>").join("") +
              "</tr></thead><tbody>" + records.map((record) => '<tr data-record-name="' + esc(record.recordName) + '"><td><a href="' +
              esc(link({ record: record.recordName })) + '">' + esc(record.recordName) + "</a></td>" +
              columns.map((f) => "<td>" + (record.fields[f.name] ? show(record.fields[f.name], false) : "") + "</td>").join("") + "</tr>").join("") +
              '</tbody></table><p class="muted">' + records.length + " records</p>";
          } catch (error) {
            html += '<p class="error" id="query-error">' + esc(error.message) + "</p>";
          }
          let shown = null;
          if (s.record) {
            const opened = await renderRecord(s);
            html += opened.html;
            shown = opened.record;
          }
          let editing = null;
          if (s.edit && s.edit !== "new") {
            const { records } = await api(database(s) + "/records/lookup", { records: [{ recordName: s.edit }], zoneID: zoneID(s) });
            editing = records[0] && !records[0].serverErrorCode ? records[0] : null;
          }
          if (s.edit === "new" || editing) html += await renderEditor(s, type, editing);
          main.innerHTML = html;
          attachSchemaForms(s, type);
          attachEditor(s, type, editing);
          const remove = document.getElementById("delete-record");
          if (remove && shown) {
            remove.addEventListener("click", () => deleteRecord(s, shown).catch((error) => {
              document.getElementById("delete-error").textContent = error.message;
            }));
          }
          document.getElementById("filter").addEventListener("submit", (event) => {
            event.preventDefault();
            const form = new FormData(event.target);
            const filter = form.get("field") ? [form.get("field"), form.get("comparator"), form.get("value")].join(",") : "";
            location.hash = link({ filter, sort: form.get("sort"), record: "" });
          });
        }

        async function renderRecord(s) {
          const { records } = await api(database(s) + "/records/lookup", { records: [{ recordName: s.record }], zoneID: zoneID(s) });
          const record = records[0];
          if (!record || record.serverErrorCode) {
            return { html: '<div id="record"><p class="error">' + esc(s.record) + ": not found</p></div>", record: null };
          }
          const html = '<div id="record" data-record-name="' + esc(record.recordName) + '" data-change-tag="' + esc(record.recordChangeTag) +
            '"><h3>' + esc(record.recordType) + " " + esc(record.recordName) + '</h3><p><a id="edit-record" href="' +
            esc(link({ edit: record.recordName })) + '">Edit</a> <button type="button" id="delete-record">Delete</button> <span class="error" id="delete-error"></span></p>' +
            '<table><tr><th>field</th><th>value</th></tr>' +
            Object.keys(record.fields).sort().map((name) => '<tr data-field="' + esc(name) + '"><td>' + esc(name) + "</td><td>" + show(record.fields[name], true) + "</td></tr>").join("") +
            '<tr><td class="muted">recordChangeTag</td><td class="muted">' + esc(record.recordChangeTag) + "</td></tr></table></div>";
          return { html, record };
        }

        window.addEventListener("hashchange", () => render().catch((error) => { main.innerHTML = '<p class="error">' + esc(error.message) + "</p>"; }));
        render().catch((error) => { main.innerHTML = '<p class="error">' + esc(error.message) + "</p>"; });
        </script>
        </body>
        </html>
        """#
}
