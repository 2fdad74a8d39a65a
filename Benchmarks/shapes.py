#!/usr/bin/env python3
"""The shape matrix of cloudseed's benchmark (issue 34): the import in every shape a user brings, each
beside `sqlite3 .import` of the same CSVs in the same run, with each store's counts checked: record
names from a column, a template, a natural key, by position or random; CSV, JSON Lines, one JSON
array, property lists; `seed` with a schema; production; stores already holding records (production
after development, a second zone, a second batch); re-import; changes; and with --postgres the naming
shapes and the filled stores into PostgreSQL beside `psql \\copy`. It prints its own section of the
report. Alone:

    python3 Benchmarks/shapes.py --rows 1000000 --runs 3 --plist-runs 3
"""

import csv
import json
import math
import os
import sqlite3
import sys

from bench import artwork_naming, copy_store, counts_of, parse_summary, remove_store, run_workloads, slug
from data import size_label
from imports import PLISTS, plist_import, plist_store, write_change_file
from measure import arguments, parse, ratio, run_process
from postgres import PostgresWorkload


CSV_TARGET, CSV_AIM = 2.0, 1.0
JSON_TARGET, JSON_AIM = 2.0, 1.5
SPREAD_TARGET, SPREAD_AIM = 1.4, 1.1
REIMPORT_TARGET, REIMPORT_AIM = 1.0, 0.5
CHANGE_TARGET = 0.10
PLIST_TARGET = 1.0
POSTGRES_TARGET, POSTGRES_AIM = 2.5, 1.5
MODEL_TARGET = 1.2
# The shapes that also go into PostgreSQL, beside psql \copy, when --postgres is given.
POSTGRES_SHAPES = ("recordName", "template", "natural key", "Type-N", "uuid", "production after development",
                   "second zone", "second batch")
# The zones the filled stores' rows write and fill before: (environment, database, zone name).
DEFAULT_ZONE = ("development", "public", "_defaultZone")
PRODUCTION_ZONE = ("production", "public", "_defaultZone")
FIRST_ZONE, SECOND_ZONE = ("development", "private", "First"), ("development", "private", "Second")

# The schema that the seed manifest gives and that production is promoted with: every field typed as
# the CSV import infers it, no index but the record name's.
SCHEMA_FIELDS = {
    "Artist": [("born", "TIMESTAMP"), ("firstName", "STRING"), ("lastName", "STRING"), ("nationality", "STRING")],
    "Artwork": [("artist", "REFERENCE"), ("catalogNumber", "INT64"), ("copies", "INT64"), ("created", "TIMESTAMP"),
                ("location", "LOCATION"), ("notes", "STRING"), ("onDisplay", "INT64"), ("price", "DOUBLE"),
                ("tags", "STRING"), ("title", "STRING")],
}
SYSTEM_FIELDS = ['"___createTime" TIMESTAMP', '"___createdBy" REFERENCE', '"___etag" STRING',
                 '"___modTime" TIMESTAMP', '"___modifiedBy" REFERENCE', '"___recordID" REFERENCE QUERYABLE']
GRANTS = ['GRANT WRITE TO "_creator"', 'GRANT CREATE TO "_icloud"', 'GRANT READ TO "_world"']


def schema_text():
    """The gallery's schema in the CloudKit Schema Language, as `cloudseed schema import` reads it."""
    types = []
    for name, fields in SCHEMA_FIELDS.items():
        lines = SYSTEM_FIELDS + [f"{field} {kind}" for field, kind in fields] + GRANTS
        types.append(f"    RECORD TYPE {name} (\n" + ",\n".join("        " + line for line in lines) + "\n    );")
    return "DEFINE SCHEMA\n\n" + "\n\n".join(types) + "\n"


# The gallery as a Core Data app's model: the CSVs' columns as attributes, the artist a to-one link.
MODEL_ATTRIBUTES = {
    "Artist": [("born", "Date"), ("firstName", "String"), ("lastName", "String"), ("nationality", "String")],
    "Artwork": [("catalogNumber", "Integer 64"), ("copies", "Integer 32"), ("created", "Date"), ("latitude", "Double"),
                ("longitude", "Double"), ("notes", "String"), ("onDisplay", "Boolean"), ("price", "Double"),
                ("tags", "String"), ("title", "String")],
}


def model_text():
    """The gallery's Core Data model, as a .xcdatamodel's contents file holds it."""
    links = {
        "Artist": '<relationship name="artworks" optional="YES" toMany="YES" deletionRule="Nullify" '
                  'destinationEntity="Artwork" inverseName="artist" inverseEntity="Artwork"/>',
        "Artwork": '<relationship name="artist" optional="YES" maxCount="1" deletionRule="Nullify" '
                   'destinationEntity="Artist" inverseName="artworks" inverseEntity="Artist"/>',
    }
    entities = []
    for name, attributes in MODEL_ATTRIBUTES.items():
        lines = [f'<attribute name="{a}" optional="YES" attributeType="{t}"/>' for a, t in attributes] + [links[name]]
        entities.append(f'    <entity name="{name}" representedClassName="{name}" syncable="YES">\n'
                        + "".join(f"        {line}\n" for line in lines) + "    </entity>\n")
    return ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
            '<model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" usedWithCloudKit="YES">\n'
            + "".join(entities) + "</model>\n")


def manifest_for(folder, schema_path):
    """A fixtures manifest as the README shows it: a schema, name templates, the reference pinned."""
    return {
        "schema": schema_path,
        "sources": [
            {"file": os.path.join(folder, "artists.csv"), "recordType": "Artist", "recordName": "{firstName} {lastName}"},
            {"file": os.path.join(folder, "artworks.csv"), "recordType": "Artwork", "recordName": "{catalogNumber} {artist}",
             "fields": {"artist": {"reference": "Artist"}, "price": {"type": "DOUBLE"}}},
        ],
    }


def gallery_files(folder, artworks="artworks.csv"):
    return [os.path.join(folder, "artists.csv"), os.path.join(folder, artworks)]


class Shape:
    """One row of the matrix: cloudseed's command into a new store, the CSVs that `sqlite3 .import`
    reads beside it, the naming rule the plan must print, and the store's setup when it is not empty.

    A store filled before the run is filled by `filled_by(store)`, cloudseed's commands, once into a
    template that each run copies (untimed). Its check counts the zone the import writes (`zone`:
    environment, database, zone name), which must then hold `stored`; the zone the template filled
    (`kept`) must keep its records, and the summary must say `created`. With `first_batch`, sqlite3's
    table already holds that folder's CSVs under a unique index on recordName, and the timed
    `.import` appends the shape's artworks.csv to it."""

    def __init__(self, key, label, family, peer_folder, files=(), extra=(), naming="", seed=None, setup=None, keep=False,
                 types=("Artist", "Artwork", "artist"), zone=None, stored=None, created=None, kept=None, filled_by=None,
                 first_batch=None):
        self.key, self.label, self.family, self.peer_folder = key, label, family, peer_folder
        self.files, self.extra, self.naming, self.seed = list(files), list(extra), naming, seed
        self.setup, self.keep = setup, keep
        # The record types of Artists and Artworks, and the Artwork field naming the Artist.
        self.types = types
        self.zone, self.stored, self.created, self.kept = zone, stored, created, kept
        self.filled_by, self.first_batch = filled_by, first_batch
        self.peer_template = None  # sqlite3's database holding the first batch
        self.summary = None
        self.check = None       # (ok, detail) of the last run's store
        self.peer_rows = None   # artworks the last sqlite3 .import read
        self.broken = None      # a Run that failed while preparing the shape

    def argv(self, bench, store):
        if self.seed:
            return bench.cs("seed", self.seed, "--store", store, "--json")
        return bench.cs("import", *self.files, "--store", store, "--json", *self.extra)

    @property
    def target(self):
        return (CSV_TARGET, CSV_AIM) if self.family == "CSV" else (JSON_TARGET, JSON_AIM)

    def peer_label(self, tool):
        """What the peer does: `tool` of the same CSVs, or appended to the first batch."""
        if self.first_batch:
            return f"{tool} appended to the first batch (unique index on recordName)"
        return tool + (" of the CSV twin" if self.family == "JSON" else "")


def zone_name(zone):
    return "/".join(zone)


def store_counts(path, types=("Artist", "Artwork", "artist"), zone=None):
    """Artist and Artwork rows of a cloudseed SQLite store (of `types`' two record types), and the
    Artworks whose artist (its field `types[2]`) is no Artist: of one zone (environment, database,
    zone name) when given, else of the whole tables."""
    artist, artwork, link = types
    in_zone, values = "1", []
    if zone:
        in_zone = "a.___zone in (select id from _cloudseed_zones where environment = ? and database = ? and zone = ?)"
        values = list(zone)
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        counts = {n: db.execute(f'select count(*) from "{t}" a where {in_zone}', values).fetchone()[0]
                  for n, t in (("Artist", artist), ("Artwork", artwork))}
        dangling = db.execute(f'select count(*) from "{artwork}" a where {in_zone} and (a."{link}" is null or not exists '
                              f'(select 1 from "{artist}" b where b.___recordID = a."{link}" and b.___zone = a.___zone))',
                              values).fetchone()[0]
    finally:
        db.close()
    return counts, dangling


def created_counts(summary, types):
    """The Artists and Artworks (of `types`' record types) that the summary says were created."""
    made = {}
    for kind, record_type in zip(("Artist", "Artwork"), types):
        counts = counts_of(summary, record_type)
        made[kind] = (counts or {}).get("created") or 0
    return made


def table_rows(path, table):
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return db.execute(f'select count(*) from "{table}"').fetchone()[0]
    finally:
        db.close()


def read_change_file(path):
    """catalogNumber -> price of a change file."""
    with open(path, newline="", encoding="utf-8") as f:
        return {int(row["catalogNumber"]): float(row["price"]) for row in csv.DictReader(f)}


def artwork_column(store, column, numbers):
    """The stored `column` of the Artworks with these catalogue numbers, by number."""
    db = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
    try:
        marks = ",".join("?" * len(numbers))
        query = f"select catalogNumber, {column} from Artwork where catalogNumber in ({marks})"
        return dict(db.execute(query, list(numbers)))
    finally:
        db.close()


def add_change_tags(change_file, target, store):
    """The change file with each record's `recordChangeTag` from the store, as an export gives it."""
    tags = artwork_column(store, "___etag", read_change_file(change_file))
    os.makedirs(os.path.dirname(target), exist_ok=True)
    with open(change_file, newline="", encoding="utf-8") as f, open(target, "w", newline="", encoding="utf-8") as out:
        reader, writer = csv.reader(f), csv.writer(out, lineterminator="\n")
        header = next(reader)
        number = header.index("catalogNumber")
        writer.writerow(header + ["recordChangeTag"])
        for row in reader:
            writer.writerow(row + [tags.get(int(row[number]), "")])


def prices_changed(store, change_file):
    """How many of the change file's Artworks hold its new price."""
    prices = read_change_file(change_file)
    stored = artwork_column(store, "price", prices)
    return sum(1 for number, price in prices.items() if stored.get(number) == price), len(prices)


PSQL_COPY = "psql \\copy (text columns)"


def postgres_template(shape):
    """The name of a filled shape's template database."""
    return "cloudseed_bench_" + slug(shape.key).replace("-", "_").lower()


def holds_cell(holds, failed):
    if failed:
        return "**FAIL**"
    if holds is None:
        return "—"
    return "yes" if holds else "**no**"


class ShapeMatrix:
    """The `shapes` workload: builds the matrix's rows and checks into a section of the report."""

    def __init__(self, bench):
        self.bench = bench
        self.folder = os.path.join(bench.work, "shapes")
        self.rows, self.checks, self.notes = [], [], []
        self.templates = []  # the stores filled once for the runs to copy, removed once measured

    def run(self):
        os.makedirs(self.folder, exist_ok=True)
        try:
            self.run_rows()
        finally:
            self.add_section()

    def run_rows(self):
        shapes = self.shapes()
        try:
            measures = self.measure(shapes)
        finally:
            for path in self.templates:
                remove_store(path)
        for shape in shapes:
            if shape.family == "CSV":
                self.shape_row(shape, measures)
        self.model_row(measures)
        for shape in shapes:
            if shape.family != "CSV":
                self.shape_row(shape, measures)
        self.spread_row(shapes, measures)
        self.plists()
        named = shapes[0]
        self.changes(named, measures.get(named.key))
        if self.bench.args.postgres:
            self.postgres(shapes)

    # -- the shapes

    def shapes(self):
        b = self.bench
        full, named, untitled = b.data["full"], b.data["named"], b.data["untitled"]
        schema = self.write_schema()
        manifest = self.write_manifest(full, schema)
        production = self.fill(Shape(
            "production", "CSV, `import --environment production` into a store holding only a promoted schema", "CSV", full,
            gallery_files(full), ["--environment", "production"], "the natural key {title}",
            filled_by=lambda store: [b.cs("schema", "import", schema, "--store", store), b.cs("schema", "promote", "--store", store)]))
        return [
            Shape("recordName", "CSV, named by a `recordName` column (half the names non-ASCII; `artist` by record name)",
                  "CSV", named, gallery_files(named), [], "the 'recordName' column", keep=True),
            Shape("template", "CSV, named by `--name-template 'Artwork=art-{catalogNumber}'`", "CSV", full, gallery_files(full),
                  ["--name-template", "Artwork=art-{catalogNumber}"], 'the name template "art-{catalogNumber}"'),
            Shape("natural key", "CSV, named by the natural key (`title`; Artists by first and last name)", "CSV", full,
                  gallery_files(full), [], "the natural key {title}"),
            Shape("Type-N", "CSV without a natural key (`title` called `caption`), named `Artwork-1`, …", "CSV",
                  untitled, gallery_files(untitled), [], "position"),
            Shape("uuid", "CSV, `--uuid`", "CSV", full, gallery_files(full), ["--uuid"], "UUIDs"),
            Shape("update-if-unchanged", "CSV, natural key, `--mode update-if-unchanged`", "CSV", full, gallery_files(full),
                  ["--mode", "update-if-unchanged"], "the natural key {title}"),
            Shape("seed", "`seed` of a manifest giving a `schema`, name templates and the reference (CSV)", "CSV", full,
                  naming='the name template "{catalogNumber} {artist}"', seed=manifest),
            production,
            *[self.fill(shape) for shape in self.filled_shapes()],
            Shape("model", "CSV, `--model` of a Core Data model: Core Data's records (`CD_Artwork`, UUID names, the artist a STRING)",
                  "CSV", full, gallery_files(full), ["--model", self.write_model()], "the natural key {title}",
                  types=("CD_Artist", "CD_Artwork", "CD_artist")),
            Shape("JSON Lines", "JSON Lines with `recordName`, + artists.csv with `recordName`", "JSON", named,
                  gallery_files(named, "artworks.jsonl"), [], "the 'recordName' column"),
            Shape("JSON array", "one JSON array with `recordName`, + artists.csv with `recordName`", "JSON", named,
                  gallery_files(named, "artworks.json"), [], "the 'recordName' column"),
        ]

    def filled_shapes(self):
        """The shapes whose store already holds records: the same CSVs into production after
        development, into a second zone, and a second batch of new Artworks after the first."""
        b = self.bench
        full, named, second = b.data["full"], b.data["named"], b.data["second"]
        files = gallery_files(full)
        gallery = {"Artist": b.artists, "Artwork": b.rows}
        return [
            Shape("production after development", "CSV, `import --environment production` into a store whose development "
                  "holds the same records, promoted", "CSV", full, files, ["--environment", "production"],
                  "the natural key {title}", zone=PRODUCTION_ZONE, kept=DEFAULT_ZONE,
                  filled_by=lambda store: [b.cs("import", *files, "--store", store),
                                           b.cs("schema", "promote", "--store", store)]),
            Shape("second zone", "CSV, `--database private --zone Second` into a store whose zone `First` holds the same records",
                  "CSV", full, files, ["--database", "private", "--zone", "Second"], "the natural key {title}",
                  zone=SECOND_ZONE, kept=FIRST_ZONE,
                  filled_by=lambda store: [b.cs("import", *files, "--store", store, "--database", "private", "--zone", "First")]),
            Shape("second batch", "CSV, a second batch of as many new Artworks (`recordName`) into a store holding the "
                  "first and the Artists", "CSV", second, [os.path.join(second, "artworks.csv")], [],
                  "the 'recordName' column", zone=DEFAULT_ZONE, stored=dict(gallery, Artwork=2 * b.rows),
                  created=dict(gallery, Artist=0), first_batch=named,
                  filled_by=lambda store: [b.cs("import", *gallery_files(named), "--store", store)]),
        ]

    def fill(self, shape):
        """A shape whose store is filled before its runs: the template store its runs copy (and, with
        a first batch, sqlite3's), made now; the shape marked broken when that fails."""
        path, shape.broken = self.template(slug(shape.key), shape.filled_by)
        shape.setup = lambda store: copy_store(path, store)
        if shape.first_batch and not shape.broken and self.bench.tools["sqlite3"]:
            shape.peer_template, shape.broken = self.template(f"{slug(shape.key)}-sqlite3", self.first_batch_tables(shape))
        return shape

    def template(self, name, commands):
        """A store that the `commands(path)` fill, made once for the runs to copy; and the failed run, if one failed."""
        b = self.bench
        path = os.path.join(self.folder, f"{name}-template.sqlite")
        remove_store(path)
        self.templates.append(path)
        for argv in commands(path):
            r = run_process(argv, b.args.timeout, capture_stdout=True)
            if not r.ok:
                b.failures.append((f"shape matrix: the {name} template", os.path.basename(argv[0]), r))
                remove_store(path)
                return path, r
        return path, None

    def first_batch_tables(self, shape):
        """sqlite3's commands making its tables of the first batch, artworks unique by recordName."""
        folder = shape.first_batch
        return lambda path: [[self.bench.tools["sqlite3"], path,
                              f'.import --csv "{os.path.join(folder, "artists.csv")}" artists',
                              f'.import --csv "{os.path.join(folder, "artworks.csv")}" artworks',
                              'CREATE UNIQUE INDEX artworks_recordName ON artworks (recordName)']]

    def write_schema(self):
        path = os.path.join(self.folder, "gallery.ckdb")
        with open(path, "w", encoding="utf-8") as f:
            f.write(schema_text())
        return path

    def write_model(self):
        path = os.path.join(self.folder, "Gallery.xcdatamodel")
        os.makedirs(path, exist_ok=True)
        with open(os.path.join(path, "contents"), "w", encoding="utf-8") as f:
            f.write(model_text())
        return path

    def write_manifest(self, folder, schema):
        path = os.path.join(self.folder, "gallery.json")
        with open(path, "w", encoding="utf-8") as f:
            json.dump(manifest_for(folder, schema), f, indent=2)
        return path

    def store(self, shape):
        return os.path.join(self.folder, f"{slug(shape.key)}.sqlite")

    def measure(self, shapes):
        """Every shape and its sqlite3 .import, alternating; each shape's last store checked."""
        b = self.bench
        last = b.args.runs - 1
        tools = []
        for shape in shapes:
            if shape.broken:
                continue
            if b.tools["sqlite3"]:
                tools.append(self.sqlite3_tool(shape, last))
            tools.append(self.cloudseed_tool(shape, last))
        return b.alternate("shape matrix", tools)

    def sqlite3_tool(self, shape, last):
        db = os.path.join(self.bench.work, "peer-sqlite3.db")
        prepare = self.sqlite3_append(shape, db) if shape.first_batch else self.bench.sqlite3_import(shape.peer_folder)[1]

        def after(run, runs):
            if run == last:
                try:
                    shape.peer_rows = table_rows(db, "artworks")
                except sqlite3.Error:
                    shape.peer_rows = 0
        return (f"sqlite3 .import · {shape.key}", prepare, after)

    def sqlite3_append(self, shape, db):
        """sqlite3 .import of the shape's artworks.csv appended to a copy of the first batch's tables:
        only the append is timed."""
        artworks = os.path.join(shape.peer_folder, "artworks.csv")

        def prepare(run):
            copy_store(shape.peer_template, db)
            return [[self.bench.tools["sqlite3"], db, f'.import --csv --skip 1 "{artworks}" artworks']]
        return prepare

    def cloudseed_tool(self, shape, last):
        store = self.store(shape)

        def prepare(run):
            remove_store(store)
            if shape.setup:
                shape.setup(store)
            return [shape.argv(self.bench, store)]

        def after(run, runs):
            shape.summary = parse_summary(runs[-1].stdout)
            if run == last:
                shape.check = self.check_new_store(shape, store)
            if not shape.keep:
                remove_store(store)
        return (shape.key, prepare, after)

    def check_new_store(self, shape, store):
        try:
            counts, dangling = store_counts(store, shape.types, shape.zone)
            kept = store_counts(store, shape.types, shape.kept)[0] if shape.kept else None
        except sqlite3.Error as error:
            return False, f"cannot read the store: {error}"
        return self.verdict(shape, counts, dangling, kept, shape.summary, shape.peer_rows, "sqlite3 .import")

    def gallery(self):
        """The Artists and Artworks that one import of the gallery's files makes."""
        return {"Artist": self.bench.artists, "Artwork": self.bench.rows}

    def created(self, shape):
        return shape.created or self.gallery()

    def peer_expected(self, shape):
        """The artworks the peer's table holds after its run: the first batch's and its own."""
        return self.bench.rows * (2 if shape.first_batch else 1)

    def verdict(self, shape, counts, dangling, kept, summary, peer_rows, peer):
        """(ok, detail) of a shape's last run: the counts of the zone it wrote (or of the whole
        store), its dangling references, the zone filled before, the naming and created counts its
        summary gives, the rows the peer left."""
        problems = []
        expected = shape.stored or self.gallery()
        if counts != expected:
            problems.append(f"expected {expected}")
        if dangling:
            problems.append(f"{dangling:,} Artworks whose artist is no Artist")
        naming = artwork_naming(summary, shape.types[1]) or "an unknown rule"
        if shape.naming not in naming:
            problems.append(f"expected naming by {shape.naming}")
        made = created_counts(summary, shape.types)
        if made != self.created(shape):
            problems.append(f"the summary says created {made}, expected {self.created(shape)}")
        if kept is not None and kept != self.gallery():
            problems.append(f"{zone_name(shape.kept)} should still hold {self.gallery()}")
        if peer_rows is not None and peer_rows != self.peer_expected(shape):
            problems.append(f"{peer} left {peer_rows:,} artworks, expected {self.peer_expected(shape):,}")
        where = f" in {zone_name(shape.zone)}" if shape.zone else ""
        detail = (f"{counts['Artwork']:,} Artworks, {counts['Artist']:,} Artists{where}, {dangling:,} dangling references; "
                  f"Artworks named by {naming}")
        if shape.zone:
            detail += f"; the summary: {made['Artwork']:,} Artworks, {made['Artist']:,} Artists created"
        if kept is not None:
            detail += f"; {zone_name(shape.kept)} still holds {kept['Artwork']:,} Artworks, {kept['Artist']:,} Artists"
        if shape.first_batch and peer_rows is not None:
            detail += f"; {peer}'s table holds {peer_rows:,} artworks after the append"
        return not problems, detail + "".join(f"; {p}" for p in problems)

    # -- the rows

    def shape_row(self, shape, measures):
        b = self.bench
        target, aim = shape.target
        target_cell = f"≤ {target:.1f}× (aim ≤ {aim:.1f}×)"
        if shape.broken:
            self.rows.append([shape.label, "failed", "—", "—", f"setup failed: {shape.broken.why()}", "—", target_cell, "**FAIL**"])
            self.checks.append((shape.key, False, "not run: its setup failed (see Failures)"))
            return
        cs = measures[shape.key]
        peer = measures.get(f"sqlite3 .import · {shape.key}")
        r = ratio(cs.time, peer.time) if peer else math.nan
        peers = f"{shape.peer_label('sqlite3 .import')} {peer.cell()}" if peer else "sqlite3: not installed"
        written = sum(self.created(shape).values())
        row = b.table_row(shape.label, cs, written, peers, r, "sqlite3", target_cell, None if r != r else r <= target)
        checked = shape.check is not None and shape.check[0]
        row[7] = holds_cell(None if r != r else r <= target, not cs.ok or not checked)
        self.rows.append(row)
        if shape.check:
            self.checks.append((shape.key, *shape.check))
        else:
            self.checks.append((shape.key, False, "not checked: the run failed (see Failures)" if cs.failure else "not checked"))

    def spread_row(self, shapes, measures):
        """The worst shape's ratio over the best's, over every SQLite shape (CSV and JSON, the filled
        stores too): every shape must be about as fast."""
        scored = []
        for shape in shapes:
            cs = measures.get(shape.key)
            peer = measures.get(f"sqlite3 .import · {shape.key}")
            if shape.broken or not cs.ok:
                continue
            scored.append((ratio(cs.time, peer.time) if peer else cs.time, shape.key))
        scored = [s for s in scored if s[0] == s[0]]
        target = f"≤ {SPREAD_TARGET:.1f}× (aim ≤ {SPREAD_AIM:.1f}×)"
        unit = "×" if self.bench.tools["sqlite3"] else " s"
        if len(scored) < 2:
            self.rows.append(["worst shape ÷ best shape", "—", "—", "—", "fewer than two shapes ran", "—", target, "**FAIL**"])
            return
        worst, best = max(scored), min(scored)
        spread = worst[0] / best[0]
        missing = len(scored) < len(shapes)
        self.rows.append(["worst shape ÷ best shape, over every SQLite shape above (their ratios to sqlite3)", "—", "—", "—",
                          f"worst: {worst[1]} {worst[0]:.2f}{unit}; best: {best[1]} {best[0]:.2f}{unit}",
                          f"{spread:.2f}×", target, holds_cell(spread <= SPREAD_TARGET, missing)])

    def model_row(self, measures):
        """`import --model` beside the same CSVs imported without a model, in the same run."""
        model, plain = measures.get("model"), measures.get("natural key")
        target = f"≤ {MODEL_TARGET:.1f}×"
        if not model or not plain or not model.ok or not plain.ok:
            self.rows.append(["`--model` ÷ the same CSVs without it", "—", "—", "—", "a run failed", "—", target, "**FAIL**"])
            return
        r = ratio(model.time, plain.time)
        self.rows.append(["`--model` ÷ the same CSVs without it (natural key)", "—", "—", "—",
                          f"model {model.time:.2f} s; without {plain.time:.2f} s", f"{r:.2f}×", target,
                          holds_cell(r <= MODEL_TARGET, False)])

    def changes(self, named, first):
        """Re-import and changes on the store the `recordName` shape filled."""
        b = self.bench
        base = self.store(named)
        steps = self.change_steps(named, base) if first and first.ok and os.path.exists(base) else []
        if not steps:
            for label in ("re-import", "1,000 changed rows", "1,000 changed rows, `--mode update-if-unchanged`"):
                self.rows.append([label, "—", "—", "—", "skipped: the `recordName` import left no store", "—", "—", "**FAIL**"])
            return
        last = b.args.runs - 1
        tools = [self.change_tool(step, base, last) for step in steps]
        measures = b.alternate("shape matrix: re-import and changes", tools)
        for step in steps:
            cs = measures[step["key"]]
            r = ratio(cs.time, first.time)
            limit = step["target"]
            holds = None if r != r else r <= limit
            peers = f"the `recordName` import {first.cell()}"
            if step["percent"]:
                row = b.table_row(step["label"], cs, 1000, peers, math.nan, "", f"≤ {limit * 100:.0f}% of the first import (issue 7)", holds)
                row[5] = f"{r * 100:.1f}% of the first import" if r == r else "—"
            else:
                row = b.table_row(step["label"], cs, b.rows + b.artists, peers, r, "first import",
                                  f"≤ {REIMPORT_TARGET:.1f}× (aim ≤ {REIMPORT_AIM:.1f}×)", holds)
            checked = step.get("check") or (False, "not checked: the run failed (see Failures)")
            row[7] = holds_cell(holds, not cs.ok or not checked[0])
            self.rows.append(row)
            self.checks.append((step["key"], *checked))
        remove_store(base)

    def change_steps(self, named, base):
        b = self.bench
        folder = b.data["named"]
        change_file = os.path.join(self.folder, "changes", "artworks.csv")  # the file name gives the type: Artwork
        os.makedirs(os.path.dirname(change_file), exist_ok=True)
        write_change_file(os.path.join(folder, "artworks.csv"), change_file, 1000)
        tagged_file = os.path.join(self.folder, "tagged", "artworks.csv")
        add_change_tags(change_file, tagged_file, base)
        return [
            {"key": "re-import", "label": "re-import of the `recordName` CSVs into the store they filled (all unchanged)",
             "files": named.files, "extra": [], "percent": False, "target": REIMPORT_TARGET, "change_file": None},
            {"key": "changes", "label": "1,000 changed rows (price) of the `recordName` CSV into its store",
             "files": [change_file], "extra": [], "percent": True, "target": CHANGE_TARGET, "change_file": change_file},
            {"key": "update-if-unchanged changes", "label": "the same 1,000 rows with their `recordChangeTag`, `--mode update-if-unchanged`",
             "files": [tagged_file], "extra": ["--mode", "update-if-unchanged"], "percent": True, "target": CHANGE_TARGET,
             "change_file": change_file},
        ]

    def change_tool(self, step, base, last):
        b = self.bench
        store = os.path.join(self.folder, f"{slug(step['key'])}.sqlite")

        def prepare(run):
            copy_store(base, store)
            return [b.cs("import", *step["files"], "--store", store, "--json", *step["extra"])]

        def after(run, runs):
            if run == last:
                step["check"] = self.check_change(step, store, parse_summary(runs[-1].stdout))
            remove_store(store)
        return (step["key"], prepare, after)

    def check_change(self, step, store, summary):
        b = self.bench
        artworks, artists = counts_of(summary, "Artwork"), counts_of(summary, "Artist")
        try:
            counts, dangling = store_counts(store)
        except sqlite3.Error as error:
            return False, f"cannot read the store: {error}"
        ok = counts == {"Artist": b.artists, "Artwork": b.rows} and dangling == 0
        detail = f"Artwork {artworks}, Artist {artists}; the store holds {counts['Artwork']:,} Artworks, {counts['Artist']:,} Artists"
        if step["change_file"]:
            changed, wanted = prices_changed(store, step["change_file"])
            ok = ok and artworks is not None and artworks.get("updated") == wanted and artworks.get("created") == 0 and changed == wanted
            return ok, f"{detail}, {changed:,} of the {wanted:,} new prices stored"
        unchanged = (artworks and artworks.get("unchanged") == b.rows and artworks.get("created") == 0 and artworks.get("updated") == 0
                     and artists and artists.get("unchanged") == b.artists)
        return ok and bool(unchanged), detail

    def plists(self):
        """The property lists, beside plistlib: the plist workload's runs when it ran, else their own."""
        b = self.bench
        rows = b.args.plist_rows
        for label, file in PLISTS:
            m = b.results.get(f"{label} plist import") or plist_import(b, label, file)
            cs, py = m["cloudseed"], m["plistlib.load"]
            r = ratio(cs.time, py.time)
            path = os.path.join(b.data["plist"], file)
            holds = None if r != r else r <= PLIST_TARGET
            row = b.table_row(f"{label} property list, {rows:,} rows ({size_label(path)}), `--type Artwork`", cs, rows,
                              f"Python plistlib.load {py.cell()}", r, "plistlib", f"≤ {PLIST_TARGET:.1f}× plistlib (issue 7)", holds)
            check = self.check_plist(label, rows) if cs.ok else None
            row[7] = holds_cell(holds, not cs.ok or not (check and check[0]))
            self.rows.append(row)
            if check:
                self.checks.append((f"{label} property list", *check))

    def check_plist(self, label, rows):
        try:
            stored = table_rows(plist_store(self.bench, label), "Artwork")
        except sqlite3.Error as error:
            return False, f"cannot read the store: {error}"
        return stored == rows, f"{stored:,} Artworks (expected {rows:,})"

    def postgres(self, shapes):
        """The CSV naming shapes and the filled stores into PostgreSQL, each beside psql \\copy of the
        same files; a filled store (and psql's first batch) is a copy of a template database made first."""
        b = self.bench
        pg = PostgresWorkload(b, b.args.postgres)
        if not pg.psql:
            self.notes.append("PostgreSQL rows skipped: psql is not installed (apt-get install postgresql-client)")
            return
        chosen = [s for s in shapes if s.key in POSTGRES_SHAPES]
        checks, peer_rows, broken = {}, {}, {}
        tools = []
        try:
            for shape in chosen:
                broken[shape.key] = self.postgres_templates(pg, shape)
                if not broken[shape.key]:
                    tools += self.postgres_tools(pg, shape, checks, peer_rows)
            measures = b.alternate("shape matrix: PostgreSQL", tools)
        finally:
            pg.drop_databases()
        for shape in chosen:
            self.postgres_row(shape, measures, checks, broken[shape.key])

    def postgres_templates(self, pg, shape):
        """The template databases of a filled shape: cloudseed's, and psql's of the first batch with
        its unique index. Why they could not be made, or None."""
        if not shape.filled_by:
            return None
        name = postgres_template(shape)
        try:
            failure = pg.cloudseed_template(name, shape.filled_by)
            if failure:
                self.bench.failures.append((f"shape matrix: the PostgreSQL {shape.key} template", "cloudseed", failure))
                return failure.why()
            if shape.first_batch:
                pg.copy_template(f"{name}_copy", shape.first_batch)
        except RuntimeError as error:
            return str(error)[:300]
        return None

    def postgres_tools(self, pg, shape, checks, peer_rows):
        """psql's \\copy (appended to the first batch, with one) and cloudseed's import of a shape."""
        last = self.bench.args.runs - 1
        template = postgres_template(shape) if shape.filled_by else None
        name = f"psql \\copy · {shape.key}"

        def counted(run, runs):
            if run == last:
                try:
                    peer_rows[shape.key] = pg.copied_rows()
                except RuntimeError:
                    peer_rows[shape.key] = 0
        if shape.first_batch:
            peer = pg.append_peer(f"{template}_copy", os.path.join(shape.peer_folder, "artworks.csv"), name, after=counted)
        else:
            peer = pg.copy_peer(shape.peer_folder, name=name, after=counted)
        return [peer, pg.cloudseed_import(shape.files, name=f"{shape.key} into PostgreSQL", extra=shape.extra, template=template,
                                          after=self.postgres_check(pg, shape, last, checks, peer_rows))]

    def postgres_row(self, shape, measures, checks, broken):
        b = self.bench
        label = f"PostgreSQL: {shape.label}"
        target_cell = f"≤ {POSTGRES_TARGET:.1f}× psql \\copy (aim ≤ {POSTGRES_AIM:.1f}×)"
        if broken:
            self.rows.append([label, "failed", "—", "—", f"setup failed: {broken}", "—", target_cell, "**FAIL**"])
            self.checks.append((f"PostgreSQL: {shape.key}", False, "not run: its setup failed"))
            return
        cs, copy = measures[f"{shape.key} into PostgreSQL"], measures[f"psql \\copy · {shape.key}"]
        r = ratio(cs.time, copy.time) if cs.ok and copy.ok else math.nan
        holds = None if r != r else r <= POSTGRES_TARGET
        peers = f"{shape.peer_label(PSQL_COPY)} {copy.cell()}"
        row = b.table_row(label, cs, sum(self.created(shape).values()), peers, r, "psql \\copy", target_cell, holds)
        check = checks.get(shape.key) or (False, "not checked: the run failed (see Failures)")
        row[7] = holds_cell(holds, not cs.ok or not check[0])
        self.rows.append(row)
        self.checks.append((f"PostgreSQL: {shape.key}", *check))

    def postgres_check(self, pg, shape, last, checks, peer_rows):
        def after(run, runs):
            if run != last:
                return
            try:
                counts, dangling = pg.stored_counts(shape.zone)
                kept = pg.stored_counts(shape.kept)[0] if shape.kept else None
            except RuntimeError as error:
                checks[shape.key] = (False, str(error))
                return
            checks[shape.key] = self.verdict(shape, counts, dangling, kept, parse_summary(runs[-1].stdout),
                                             peer_rows.get(shape.key), "psql \\copy")
        return after

    def add_section(self):
        b = self.bench
        full = b.data["full"]
        intro = [
            f"{b.rows:,} Artworks + {b.artists:,} Artists ({size_label(os.path.join(full, 'artworks.csv'))} of CSV), "
            f"property lists {b.args.plist_rows:,} rows. Each row imports into a new, empty SQLite store unless it says otherwise, "
            "and its ratio is to the `sqlite3 .import` runs of the same CSVs (for the second batch, appended to a table "
            "holding the first) that alternated with it in this run "
            f"({b.args.runs} run(s) each, medians). Targets are issue 34's \"must reach\" (its aim in brackets).",
        ]
        columns = ["shape", "cloudseed time", "rows/s", "peak RSS", "beside, in the same run", "ratio", "must reach", "holds?"]
        b.sections.append(("The shape matrix (issue 34)", intro, columns, self.rows, self.checks, self.notes))


def shape_matrix(bench):
    ShapeMatrix(bench).run()


STEPS = [("shapes", shape_matrix)]


def main(argv=None):
    parser = arguments(__doc__, postgres=True)
    args, only = parse(parser, argv, ["shapes"])
    return run_workloads(args, only, STEPS)


if __name__ == "__main__":
    sys.exit(main())
