/// The console's editing, loaded by ``ConsolePage``: a record form with an input for each field's
/// type (date and time pickers, in UTC, for TIMESTAMP, a file for ASSET, a record picker for REFERENCE, latitude and
/// longitude for LOCATION, a row per item for lists), saved and deleted through `records/modify`
/// with the record's change tag, as any client saves, so that a stale edit is answered CONFLICT;
/// and the development schema's new fields and indexes (`/console/schema/…/fields`, `…/indexes`).
enum ConsoleEditor {
    /// Where the server serves the script.
    static let path = "/console-editor.js"

    static let script = #"""
        "use strict";
        // The element type of a LIST<…> field, or null.
        const listElement = (type) => { const match = /^LIST<(.+)>$/.exec(type); return match ? match[1] : null; };
        // A TIMESTAMP as the date picker shows it, in UTC so that every browser shows the same.
        const pickerTime = (ms) => new Date(ms).toISOString().slice(0, 19);

        // The input of one value of `type`; `value` as records/lookup answers it.
        function valueInput(type, value) {
          const given = value === undefined || value === null ? "" : value;
          switch (type) {
            case "INT64": return '<input type="number" step="1" value="' + esc(given) + '">';
            case "DOUBLE": return '<input type="number" step="any" value="' + esc(given) + '">';
            case "TIMESTAMP":
              return '<input type="date" class="date" value="' + (given === "" ? "" : pickerTime(given).slice(0, 10)) +
                '"> <input type="time" step="1" class="time" value="' + (given === "" ? "" : pickerTime(given).slice(11)) + '"> <span class="muted">UTC</span>';
            case "REFERENCE": return '<input list="record-names" value="' + esc(given ? given.recordName : "") + '">';
            case "LOCATION":
              return '<input type="number" step="any" class="latitude" placeholder="latitude" value="' + esc(given ? given.latitude : "") +
                '"> <input type="number" step="any" class="longitude" placeholder="longitude" value="' + esc(given ? given.longitude : "") + '">';
            case "ASSET":
              return '<input type="file">' + (given ? ' <span class="muted">' + esc(given.size) + " bytes kept unless a file is chosen</span>" : "");
            default: return '<input type="text" value="' + esc(given) + '">';
          }
        }

        // A list's rows: one input per item, each with a button that removes it.
        function listItem(element, value) {
          return '<div class="item">' + valueInput(element, value) + ' <button type="button" class="remove-item">Remove</button></div>';
        }

        function fieldInput(field, value) {
          const element = listElement(field.type);
          if (!element) return valueInput(field.type, value);
          return '<div class="items">' + (value || []).map((item) => listItem(element, item)).join("") +
            '</div><button type="button" class="add-item">Add item</button>';
        }

        // The value an input holds, as records/modify takes it; undefined when it holds none.
        async function inputValue(s, type, element, recordName, fieldName, recordType) {
          const input = element.querySelector("input");
          switch (type) {
            case "INT64": return input.value === "" ? undefined : Number.parseInt(input.value, 10);
            case "DOUBLE": return input.value === "" ? undefined : Number(input.value);
            case "TIMESTAMP": {
              const date = element.querySelector(".date").value, time = element.querySelector(".time").value || "00:00:00";
              return date === "" ? undefined : Date.parse(date + "T" + (time.length === 5 ? time + ":00" : time) + "Z");
            }
            case "REFERENCE": return input.value === "" ? undefined : { recordName: input.value, action: "NONE" };
            case "LOCATION": {
              const latitude = element.querySelector(".latitude").value, longitude = element.querySelector(".longitude").value;
              return latitude === "" || longitude === "" ? undefined : { latitude: Number(latitude), longitude: Number(longitude) };
            }
            case "ASSET": return input.files.length ? await upload(s, recordType, recordName, fieldName, input.files[0]) : undefined;
            default: return input.value === "" ? undefined : input.value;
          }
        }

        // Uploads a file as CloudKit JS does: assets/upload for a URL, then the bytes to it.
        async function upload(s, recordType, recordName, fieldName, file) {
          const { tokens } = await api(database(s) + "/assets/upload",
            { tokens: [{ recordType, recordName, fieldName }], zoneID: zoneID(s) });
          const response = await fetch(tokens[0].url, { method: "POST", body: file });
          const json = await response.json();
          if (!response.ok) throw new Error(json.serverErrorCode + ": " + json.reason);
          return json.singleFile;
        }

        // The record form: a new record of `type`, or `record` to edit.
        async function renderEditor(s, type, record) {
          let names = [];
          try {
            const { records } = await api(database(s) + "/records/changes", { zoneID: zoneID(s) || { zoneName: "_defaultZone" }, resultsLimit: 200 });
            names = records.filter((r) => !r.deleted).map((r) => [r.recordType, r.recordName]);
          } catch (error) { names = []; }
          const fields = type.fields.filter((f) => !f.name.startsWith("___"));
          return '<form id="editor" data-type="' + esc(type.name) + '"><h3>' + (record ? "Edit " + esc(record.recordName) : "New " + esc(type.name)) + "</h3>" +
            (record ? "" : '<p><label>recordName <input name="recordName" id="record-name"></label></p>') +
            '<datalist id="record-names">' + names.map(([t, n]) => '<option value="' + esc(n) + '">' + esc(t) + "</option>").join("") + "</datalist>" +
            "<table>" + fields.map((f) => '<tr><td>' + esc(f.name) + ' <span class="muted">' + esc(f.type) + '</span></td><td class="field" data-field="' +
              esc(f.name) + '" data-type="' + esc(f.type) + '">' + fieldInput(f, record && record.fields[f.name] ? record.fields[f.name].value : undefined) +
              "</td></tr>").join("") +
            '</table><button type="submit" id="save">Save</button> <p class="error" id="save-error"></p></form>';
        }

        function attachEditor(s, type, record) {
          const form = document.getElementById("editor");
          if (!form) return;
          form.addEventListener("click", (event) => {
            if (event.target.classList.contains("add-item")) {
              const cell = event.target.closest(".field");
              cell.querySelector(".items").insertAdjacentHTML("beforeend", listItem(listElement(cell.dataset.type)));
            } else if (event.target.classList.contains("remove-item")) {
              event.target.closest(".item").remove();
            }
          });
          form.addEventListener("submit", async (event) => {
            event.preventDefault();
            const shown = document.getElementById("save-error");
            shown.textContent = "";
            try {
              const recordName = record ? record.recordName : document.getElementById("record-name").value.trim();
              if (!recordName) throw new Error("give the record a name");
              const fields = {};
              for (const cell of form.querySelectorAll(".field")) {
                const element = listElement(cell.dataset.type);
                let value;
                if (element) {
                  value = [];
                  for (const item of cell.querySelectorAll(".item")) {
                    const itemValue = await inputValue(s, element, item, recordName, cell.dataset.field, type.name);
                    if (itemValue !== undefined) value.push(itemValue);
                  }
                } else {
                  value = await inputValue(s, cell.dataset.type, cell, recordName, cell.dataset.field, type.name);
                }
                if (value !== undefined) fields[cell.dataset.field] = { value };
              }
              const saved = { recordName, recordType: type.name, fields };
              if (record) saved.recordChangeTag = record.recordChangeTag;
              const answer = await api(database(s) + "/records/modify",
                { operations: [{ operationType: record ? "update" : "create", record: saved }], zoneID: zoneID(s) });
              const result = answer.records[0];
              if (result.serverErrorCode) throw new Error(result.serverErrorCode + ": " + result.reason);
              location.hash = link({ edit: "", record: recordName });
            } catch (error) {
              shown.textContent = error.message;
            }
          });
        }

        // Deletes the record shown, with its change tag.
        async function deleteRecord(s, record) {
          const answer = await api(database(s) + "/records/modify",
            { operations: [{ operationType: "delete", record: { recordName: record.recordName, recordChangeTag: record.recordChangeTag } }], zoneID: zoneID(s) });
          const result = answer.records[0];
          if (result.serverErrorCode) throw new Error(result.serverErrorCode + ": " + result.reason);
          location.hash = link({ record: "", edit: "" });
        }

        // The forms that add a field or an index to the record type.
        function schemaForms(type) {
          const types = ["STRING", "INT64", "DOUBLE", "TIMESTAMP", "BYTES", "REFERENCE", "ASSET", "LOCATION",
            "LIST<STRING>", "LIST<INT64>", "LIST<DOUBLE>", "LIST<TIMESTAMP>", "LIST<REFERENCE>"];
          const fields = type.fields.filter((f) => !f.name.startsWith("___"));
          return '<form id="add-field">Add field <input name="name" placeholder="field name"> <select name="type">' +
            types.map((t) => "<option>" + esc(t) + "</option>").join("") + '</select> <button>Add field</button></form>' +
            '<form id="add-index">Add index <input name="field" list="field-names" placeholder="field"><datalist id="field-names">' +
            fields.map((f) => "<option>" + esc(f.name) + "</option>").join("") + '</datalist> <select name="index">' +
            ["QUERYABLE", "SORTABLE", "SEARCHABLE"].map((i) => "<option>" + i + "</option>").join("") +
            '</select> <button>Add index</button></form><p class="error" id="schema-error"></p>';
        }

        function attachSchemaForms(s, type) {
          const send = async (path, body) => {
            try {
              await api("/console/schema/" + encodeURIComponent(s.c) + "/" + s.e + "/" + path, body);
              await render();
            } catch (error) {
              document.getElementById("schema-error").textContent = error.message;
            }
          };
          document.getElementById("add-field").addEventListener("submit", (event) => {
            event.preventDefault();
            const form = new FormData(event.target);
            send("fields", { recordType: type.name, fieldName: form.get("name").trim(), fieldType: form.get("type") });
          });
          document.getElementById("add-index").addEventListener("submit", (event) => {
            event.preventDefault();
            const form = new FormData(event.target);
            send("indexes", { recordType: type.name, fieldName: form.get("field").trim(), index: form.get("index") });
          });
        }
        """#
}
