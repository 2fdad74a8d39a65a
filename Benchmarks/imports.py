#!/usr/bin/env python3
"""The import workloads of cloudseed's benchmark (issue 7), each beside its peers in the same run: the
CSV import (`sqlite3 .import`, sqlite-utils) and its checks, JSON Lines, one JSON array's peak memory
(Python's json.load), the memory at a tenth of the rows, the re-import, 1,000 changed rows, and the
property lists (plistlib). Alone:

    python3 Benchmarks/imports.py --rows 100000 --runs 1
    python3 Benchmarks/imports.py --rows 100000 --only csv,jsonl
"""

import csv
import json
import math
import os
import sqlite3
import sys

from bench import artwork_naming, copy_store, counts_of, parse_summary, remove_store, run_workloads, slug
from data import size_label
from measure import arguments, fmt_mb, fmt_ratio, parse, ratio, run_process


# --------------------------------------------------------------------------------------------
# The peers' imports


def sqlite_utils_import(bench, folder, artworks_file, nl):
    flags = bench.tools["sqlite_utils_nl_flags"] if nl else bench.tools["sqlite_utils_csv_flags"]

    def prepare(run):
        db = os.path.join(bench.work, "peer-sqlite-utils.db")
        remove_store(db)
        su = bench.tools["sqlite_utils"]
        return [[su, "insert", db, "artists", os.path.join(folder, "artists.csv"), "--csv", *bench.tools["sqlite_utils_csv_flags"]],
                [su, "insert", db, "artworks", os.path.join(folder, artworks_file), "--nl" if nl else "--csv", *flags]]
    return ("sqlite-utils", prepare, None)


def peers_for_import(bench, folder, artworks_file, nl, keep_sqlite3=False):
    peers = []
    if bench.tools["sqlite3"]:
        peers.append(bench.sqlite3_import(folder, keep=keep_sqlite3))
    if bench.tools["sqlite_utils"]:
        peers.append(sqlite_utils_import(bench, folder, artworks_file, nl))
    return peers


# --------------------------------------------------------------------------------------------
# The workloads


def csv_import(bench):
    full = bench.data["full"]
    tools = peers_for_import(bench, full, "artworks.csv", nl=False, keep_sqlite3=True)
    tools.append(bench.cloudseed_import([os.path.join(full, "artists.csv"), os.path.join(full, "artworks.csv")],
                                        keep_as=bench.cloudseed_store))
    m = bench.alternate("CSV import", tools)
    cs = m["cloudseed"]
    bench.full_summary = parse_summary(cs.last_stdout) if cs.ok else None
    total = bench.rows + bench.artists
    base = m.get("sqlite3")
    r = ratio(cs.time, base.time) if base else math.nan
    bench.row(f"CSV import, types inferred, references resolved ({bench.rows:,} + {bench.artists:,} rows, {size_label(os.path.join(full, 'artworks.csv'))})",
              cs, total, bench.peer_cell(m, [("sqlite3", "sqlite3 .import"), ("sqlite-utils", "sqlite-utils --csv")]),
              r, "sqlite3", "≤ 2.0× sqlite3 (aim ≤ 1.0×)", None if r != r else r <= 2.0)
    su = m.get("sqlite-utils")
    faster = ratio(su.time, cs.time) if su else math.nan
    bench.row("same vs `sqlite-utils insert --csv` (types detected)", cs, total,
              bench.peer_cell(m, [("sqlite-utils", "sqlite-utils --csv")]),
              faster, "(sqlite-utils time ÷ cloudseed time)", "≥ 15× faster (aim ≥ 40×)", None if faster != faster else faster >= 15)
    if bench.full_summary:
        bench.notes.append("cloudseed's plan for the CSV import: " + describe_plan(bench.full_summary))


def jsonl_import(bench):
    full = bench.data["full"]
    tools = peers_for_import(bench, full, "artworks.jsonl", nl=True)
    tools.append(bench.cloudseed_import([os.path.join(full, "artists.csv"), os.path.join(full, "artworks.jsonl")]))
    m = bench.alternate("JSON Lines import", tools)
    cs = m["cloudseed"]
    base = m.get("sqlite3")
    r = ratio(cs.time, base.time) if base else math.nan
    su = m.get("sqlite-utils")
    bench.row(f"JSON Lines import ({size_label(os.path.join(full, 'artworks.jsonl'))}) + artists.csv", cs, bench.rows + bench.artists,
              bench.peer_cell(m, [("sqlite3", "sqlite3 .import of the CSV twin"), ("sqlite-utils", "sqlite-utils --nl")])
              + (f" ({fmt_ratio(ratio(su.time, cs.time))} of cloudseed's time)" if su and su.ok and cs.ok else ""),
              r, "sqlite3", "≤ 2.5× sqlite3 (aim ≤ 1.5×)", None if r != r else r <= 2.5)


def json_array(bench):
    full = bench.data["full"]
    path = os.path.join(full, "artworks.json")
    tools = [("python json.load", lambda run: [[sys.executable, "-c", "import json,sys; json.load(open(sys.argv[1], encoding='utf-8'))", path]], None),
             bench.cloudseed_import([os.path.join(full, "artists.csv"), path])]
    m = bench.alternate("JSON array import", tools)
    cs, py = m["cloudseed"], m["python json.load"]
    peer = f"Python json.load {py.cell()}, peak {fmt_mb(py.rss_mb)}"
    r = ratio(cs.rss_mb, py.rss_mb)
    bench.row(f"one JSON array ({size_label(path)}) + artists.csv: peak memory", cs, bench.rows + bench.artists, peer,
              r, "of json.load's memory", "peak ≤ 150 MB (aim ≤ 64 MB)", None if not cs.ok else cs.rss_mb <= 150)


def memory_ratio(bench):
    tenth = bench.data["tenth"]
    small = bench.cloudseed_import([os.path.join(tenth, "artists.csv"), os.path.join(tenth, "artworks.csv")], name="cloudseed (1/10 rows)")
    m = bench.alternate("memory 1/10", [small])
    big = bench.results.get("CSV import", {}).get("cloudseed")
    sm = m["cloudseed (1/10 rows)"]
    r = ratio(big.rss_mb, sm.rss_mb) if big else math.nan
    rows_small = max(1, bench.rows // 10)
    bench.row(f"peak memory, CSV, {bench.rows:,} rows vs {rows_small:,} rows", big, bench.rows + bench.artists,
              f"cloudseed at {rows_small:,} rows: {sm.cell()}, peak {fmt_mb(sm.rss_mb)}", r, f"({fmt_mb(big.rss_mb) if big else '—'} / {fmt_mb(sm.rss_mb)})",
              "≤ 1.5× (aim ≤ 1.1×)", None if r != r else r <= 1.5)


def reimport(bench):
    full = bench.data["full"]
    files = [os.path.join(full, "artists.csv"), os.path.join(full, "artworks.csv")]
    store = os.path.join(bench.work, "reimport.sqlite")
    counts = []

    def prepare(run):
        copy_store(bench.cloudseed_store, store)
        return [bench.cs("import", *files, "--store", store, "--json")]

    def after(run, runs):
        counts.append((counts_of(parse_summary(runs[-1].stdout), "Artwork"), counts_of(parse_summary(runs[-1].stdout), "Artist")))
    m = bench.alternate("re-import", [("cloudseed", prepare, after)])
    cs = m["cloudseed"]
    first = bench.results["CSV import"]["cloudseed"]
    r = ratio(cs.time, first.time)
    unchanged = all(c[0] and c[0].get("unchanged") == bench.rows and c[0].get("created") == 0 and c[0].get("updated") == 0 for c in counts) if counts else False
    if counts:
        bench.checks.append(("re-import says every record unchanged", unchanged, f"Artwork {counts[-1][0]}, Artist {counts[-1][1]}"))
    bench.row("re-import of the same files into the filled store (all unchanged)", cs, bench.rows + bench.artists,
              f"first import (cloudseed) {first.cell()}", r, "first import", "≤ 1.5× (aim ≤ 1.0×)", None if r != r else r <= 1.5)


def change(bench):
    full = bench.data["full"]
    folder = os.path.join(bench.work, "changes")
    os.makedirs(folder, exist_ok=True)
    change_file = os.path.join(folder, "artworks.csv")  # the file name gives the type: Artwork
    naming = artwork_naming(bench.full_summary)
    reference = bench.results["CSV import"]["cloudseed"]
    reference_label = "full import (cloudseed)"
    extra = []
    base_store = bench.cloudseed_store
    # Names by title come out the same from a 1,000-row file; names by position do not, so a
    # store named by position is rebuilt once with the names pinned to the catalogue number.
    if naming is None or "{title}" not in naming:
        bench.notes.append(f"The full CSV import named Artworks by {naming or 'an unknown rule'}: a 1,000-row change "
                           "file cannot reproduce those names, so the change workload pins "
                           "`--name-template 'Artwork={catalogNumber}'` for a full import (timed once) and for the changes.")
        write_change_file(os.path.join(full, "artworks.csv"), change_file, 1000)
        probe = os.path.join(bench.work, "probe.sqlite")
        copy_store(bench.cloudseed_store, probe)
        r = run_process(bench.cs("import", change_file, "--store", probe, "--json"), bench.args.timeout, capture_stdout=True)
        c = counts_of(parse_summary(r.stdout), "Artwork") if r.ok else None
        bench.notes.append(f"Unpinned, the 1,000 changed rows into the position-named store gave: "
                           f"{c if c else 'failure: ' + r.why() + ' ' + r.stderr.strip()[-500:]} (naming {artwork_naming(parse_summary(r.stdout))!s}).")
        remove_store(probe)
        extra = ["--name-template", "Artwork={catalogNumber}"]
        base_store = os.path.join(bench.work, "pinned.sqlite")
        pinned = bench.cloudseed_import([os.path.join(full, "artists.csv"), os.path.join(full, "artworks.csv")],
                                        name="cloudseed pinned", keep_as=base_store, extra=extra)
        saved_runs = bench.args.runs
        bench.args.runs = 1
        reference = bench.alternate("pinned full import", [pinned])["cloudseed pinned"]
        bench.args.runs = saved_runs
        reference_label = "full import pinned by {catalogNumber}"
        if not reference.ok:
            bench.row("1,000 changed rows into the full store", None, 1000, "pinned full import failed", math.nan, "", "≤ 10% (aim ≤ 2%)", None)
            return
    else:
        write_change_file(os.path.join(full, "artworks.csv"), change_file, 1000)
    store = os.path.join(bench.work, "change.sqlite")
    counts = []

    def prepare(run):
        copy_store(base_store, store)
        return [bench.cs("import", change_file, "--store", store, "--json", *extra)]

    def after(run, runs):
        counts.append(counts_of(parse_summary(runs[-1].stdout), "Artwork"))
    m = bench.alternate("1,000 changed rows", [("cloudseed", prepare, after)])
    cs = m["cloudseed"]
    if counts:
        good = all(c and c.get("updated") == 1000 and c.get("created") == 0 for c in counts)
        bench.checks.append(("the change file updates 1,000 Artworks and creates none", good, f"Artwork {counts[-1]}"))
    r = ratio(cs.time, reference.time)
    bench.row("1,000 changed rows (price) into the full store", cs, 1000, f"{reference_label} {reference.cell()}",
              r * 100 if r == r else r, "% of the full import", "≤ 10% (aim ≤ 2%)", None if r != r else r <= 0.10)
    # fmt_ratio prints "×": fix the cell to a percentage.
    last = bench.rows_out[-1]
    last[5] = f"{r * 100:.1f}% of the full import" if r == r else "—"


def plist_import(bench, label, file):
    """cloudseed's import of one property list beside plistlib.load, its last store kept in plist_store(label)."""
    path = os.path.join(bench.data["plist"], file)
    tools = [("plistlib.load", lambda run: [[sys.executable, "-c", "import plistlib,sys; plistlib.load(open(sys.argv[1], 'rb'))", path]], None),
             bench.cloudseed_import([path], extra=["--type", "Artwork"], keep_as=plist_store(bench, label))]
    return bench.alternate(f"{label} plist import", tools, count=bench.args.plist_runs)


def plist_store(bench, label):
    return os.path.join(bench.work, f"plist-{slug(label)}.sqlite")


def plist(bench):
    folder = bench.data["plist"]
    for label, file in PLISTS:
        path = os.path.join(folder, file)
        m = plist_import(bench, label, file)
        cs, py = m["cloudseed"], m["plistlib.load"]
        r = ratio(cs.time, py.time)
        bench.row(f"{bench.args.plist_rows:,}-row {label} plist import ({size_label(path)})", cs, bench.args.plist_rows,
                  f"Python plistlib.load {py.cell()}, peak {fmt_mb(py.rss_mb)}", r, "plistlib", "≤ 1.0× plistlib (aim ≤ 0.3×)",
                  None if r != r else r <= 1.0)


# --------------------------------------------------------------------------------------------
# Correctness


def verify(bench):
    store = bench.cloudseed_store
    full = bench.data["full"]
    if not os.path.exists(store):
        bench.checks.append(("cloudseed's CSV import store exists", False, "no store: the import failed"))
        return
    try:
        db = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
    except sqlite3.Error as error:
        bench.checks.append(("open the store", False, str(error)))
        return

    def check(name, fn):
        try:
            ok, detail = fn()
        except Exception as error:  # a missing table or column is a failed check, not a crash
            ok, detail = False, f"{type(error).__name__}: {error}"
        bench.checks.append((name, ok, detail))

    def one(sql, *params):
        return db.execute(sql, params).fetchone()[0]

    check("Artwork rows", lambda: (one("select count(*) from Artwork") == bench.rows, f"{one('select count(*) from Artwork'):,} (expected {bench.rows:,})"))
    check("Artist rows", lambda: (one("select count(*) from Artist") == bench.artists, f"{one('select count(*) from Artist'):,} (expected {bench.artists:,})"))

    def fields():
        rows = db.execute("select field, field_type from _cloudseed_fields where record_type = 'Artwork' order by field").fetchall()
        types = dict(rows)
        expected = {"artist": "REFERENCE", "price": "DOUBLE", "copies": "INT64", "created": "TIMESTAMP",
                    "onDisplay": "INT64", "catalogNumber": "INT64", "location": "LOCATION"}
        wrong = {k: types.get(k) for k, v in expected.items() if types.get(k) != v}
        return not wrong, ", ".join(f"{k} {v}" for k, v in rows) + (f"; expected otherwise: {wrong}" if wrong else "")
    check("Artwork field types", fields)

    def references():
        unset = one("select count(*) from Artwork where artist is null")
        dangling = one("select count(*) from Artwork a where a.artist is not null and not exists "
                       "(select 1 from Artist b where b.___recordID = a.artist and b.___zone = a.___zone)")
        return unset == 0 and dangling == 0, f"{unset} unset, {dangling} naming no Artist ___recordID"
    check("every Artwork.artist is an Artist ___recordID", references)

    def typed():
        res = {}
        for col in ("price", "copies", "created", "onDisplay", "catalogNumber"):
            res[col] = dict(db.execute(f'select typeof("{col}"), count(*) from Artwork group by 1').fetchall())
        bad_created = one("select count(*) from Artwork where created not glob "
                          "'[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9].[0-9][0-9][0-9]Z'")
        ok = (set(res["price"]) == {"real"} and set(res["copies"]) == {"integer"} and set(res["created"]) == {"text"}
              and set(res["onDisplay"]) == {"integer"} and bad_created == 0)
        return ok, f"typeof: {res}; created not like 2019-…T…Z: {bad_created}"
    check("typed columns (price REAL, copies INTEGER, created ISO 8601 …Z text)", typed)

    check("sample rows equal their source", lambda: sample_against_source(db, os.path.join(full, "artworks.csv"), bench.rows))

    if bench.tools["sqlite3"] and os.path.exists(bench.sqlite3_db):
        def peer():
            p = sqlite3.connect(f"file:{bench.sqlite3_db}?mode=ro", uri=True)
            n = p.execute("select count(*) from artworks").fetchone()[0]
            p.close()
            return n == bench.rows, f"{n:,} rows"
        check("peer: sqlite3 .import read every artwork (embedded newlines and quotes)", peer)
    db.close()


# --------------------------------------------------------------------------------------------
# Helpers: the property lists, the plan, the change file, the sample checked against its source


PLISTS = (("XML", "artworks.plist"), ("binary", "artworks.binary.plist"))


def describe_plan(summary):
    parts = []
    for t in summary.get("recordTypes", []):
        fields = ", ".join(f"{name} {f.get('type')}" + (f"→{f['target']}" if f.get("target") else "")
                           for name, f in sorted(t.get("fields", {}).items()))
        parts.append(f"{t.get('name')} named by {t.get('naming')} ({fields})")
    return "; ".join(parts)


def write_change_file(source, target, count):
    """`count` rows spread over the source, their title (the name) kept and their price changed."""
    with open(source, newline="", encoding="utf-8") as f:
        total = sum(1 for _ in csv.reader(f)) - 1
    step = max(1, total // count)
    chosen = 0
    with open(source, newline="", encoding="utf-8") as f, open(target, "w", newline="", encoding="utf-8") as out:
        reader, writer = csv.reader(f), csv.writer(out, lineterminator="\n")
        header = next(reader)
        writer.writerow(header)
        price = header.index("price")
        for i, row in enumerate(reader):
            if i % step == 0 and chosen < count:
                row[price] = f"{float(row[price]) + 1.25:.2f}"
                writer.writerow(row)
                chosen += 1
    return chosen


def sample_against_source(db, csv_path, rows):
    wanted = {0, rows - 1, rows // 2, rows // 3, rows // 7, (rows * 5) // 6}
    source = {}
    with open(csv_path, newline="", encoding="utf-8") as f:
        reader = csv.DictReader(f)
        for i, row in enumerate(reader):
            if i in wanted:
                source[int(row["catalogNumber"])] = row
            if len(source) == len(wanted):
                break
    columns = [r[1] for r in db.execute("pragma table_info(Artwork)")]
    problems = []
    marks = ",".join("?" * len(source))
    found = {r[0]: r for r in db.execute(
        f"select a.catalogNumber, a.title, a.price, a.copies, a.created, a.onDisplay, a.notes, "
        f"{'a.location' if 'location' in columns else 'null'}, {'a.tags' if 'tags' in columns else 'null'}, "
        f"b.firstName || ' ' || b.lastName from Artwork a left join Artist b on b.___recordID = a.artist and b.___zone = a.___zone "
        f"where a.catalogNumber in ({marks})", list(source))}
    for number, src in source.items():
        got = found.get(number)
        if not got:
            problems.append(f"{number}: missing")
            continue
        _, title, price, copies, created, on_display, notes, location, tags, artist = got
        expect = [
            ("title", title, src["title"]),
            ("price", price, float(src["price"])),
            ("copies", copies, int(src["copies"])),
            ("created", created, src["created"].replace("Z", ".000Z")),
            ("onDisplay", on_display, 1 if src["onDisplay"] == "true" else 0),
            ("notes", notes, src["notes"] or None),
            ("artist", artist, src["artist"]),
        ]
        for name, value, wanted_value in expect:
            if value != wanted_value:
                problems.append(f"{number}.{name}: {value!r} ≠ {wanted_value!r}")
        if location is not None:
            try:
                loc = json.loads(location)
                if abs(loc["latitude"] - float(src["latitude"])) > 1e-9 or abs(loc["longitude"] - float(src["longitude"])) > 1e-9:
                    problems.append(f"{number}.location: {location} ≠ {src['latitude']},{src['longitude']}")
            except (ValueError, KeyError, TypeError):
                problems.append(f"{number}.location: {location!r}")
        else:
            problems.append(f"{number}.location: unset")
        if tags is not None:
            try:
                same = json.loads(tags) == json.loads(src["tags"])
            except ValueError:
                same = False
            if not same:
                problems.append(f"{number}.tags: {tags!r} ≠ {src['tags']!r}")
    return not problems, (f"{len(source)} rows compared (title, price, copies, created, onDisplay, notes, artist via the reference, location, tags)"
                          + ("; " + "; ".join(problems[:10]) if problems else ""))


# The CSV import and its checks: they run first for any workload but postgres and shapes.
CSV_STEPS = [("csv", csv_import), ("csv", verify)]
STEPS = CSV_STEPS + [("jsonl", jsonl_import), ("json", json_array), ("memory", memory_ratio), ("reimport", reimport),
                     ("change", change), ("plist", plist)]


def main(argv=None):
    workloads = list(dict.fromkeys(name for name, _ in STEPS))
    parser = arguments(__doc__, workloads)
    args, only = parse(parser, argv, workloads)
    return run_workloads(args, only, STEPS)


if __name__ == "__main__":
    sys.exit(main())
