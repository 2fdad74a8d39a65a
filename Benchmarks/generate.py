#!/usr/bin/env python3
"""Deterministic benchmark data for cloudseed (issue 7).

Writes N Artworks and N/100 Artists, the same artworks in several formats:

    artists.csv            firstName,lastName,born,nationality (names unique, some non-ASCII)
    artworks.csv           catalogNumber,title,artist,created,price,copies,onDisplay,
                           latitude,longitude,tags,notes   (tags is a JSON-array string)
    artworks.jsonl         one JSON object per line (tags a real array, notes null when empty)
    artworks.json          one top-level JSON array of the same objects
    artworks.plist         XML property list, --plist-rows rows (default 100,000)
    artworks.binary.plist  binary property list of the same rows

A variant writes the same rows as files of another shape (the shape matrix of issue 34):

    --variant named        artists.csv and artworks.* begin with a `recordName` column (non-ASCII
                           in about half the names: `Kraków-100007`, `京都-100003`), and each
                           artwork's `artist` is the Artist's record name, not its natural key
    --variant untitled     artworks.* call `title` `caption`, so no column is a natural key and
                           cloudseed names Artworks by position (`Artwork-1`, …)
    --variant second       a second batch for the named files: N more Artworks, rows N to 2N-1 (their
                           catalogue numbers and record names follow the first N's), from their own
                           random stream, naming the same Artists by record name (artists.csv is
                           named's)

Everything comes from one `random.Random(seed)`, so the same --rows and --seed give the same bytes.
CSV, JSON Lines and the JSON array are written row by row (streamed); only the property lists, which
plistlib writes from one object, are built in memory, and only for --plist-rows rows.

    python3 Benchmarks/generate.py --rows 100000 --seed 7 --out /tmp/cloudseed-data
    python3 Benchmarks/generate.py --rows 1000000 --formats csv,jsonl,json --out DIR
    python3 Benchmarks/generate.py --rows 100000 --variant named --formats csv,jsonl,json --out DIR
    python3 Benchmarks/generate.py --rows 100000 --variant second --formats csv --out DIR2
"""

import argparse
import csv
import datetime as dt
import json
import os
import plistlib
import random
import sys
import unicodedata

FORMATS = ("csv", "jsonl", "json", "plist")
VARIANTS = ("plain", "named", "untitled", "second")

# Artist names. Every first and last name stays distinct after cloudseed's ASCII transliteration
# (diacritics dropped, Han characters romanised to pinyin), so each "first last" pair gets its own
# record name: none of the Latin names below is a pinyin syllable of the Han names.
FIRST_NAMES = [
    "Ada", "Alma", "Amélie", "André", "Anouk", "Aurélien", "Bea", "Björn", "Camille", "Chloé",
    "Clément", "Dagny", "Dmitri", "Élodie", "Émile", "Esmé", "Fatima", "Félix", "Gaëlle", "Grete",
    "Hélène", "Ingrid", "Jérôme", "Joaquín", "José", "Karin", "Léa", "Lena", "Łukasz", "Maëlle",
    "Marta", "Mateo", "Miriam", "Noé", "Nora", "Olaf", "Paloma", "Quentin", "Renée", "Rosa",
    "Søren", "Sven", "Théo", "Ulla", "Vera", "Yusuf", "Zoë", "Zofia", "Ines", "Oskar",
    "Adrián", "Agnès", "Åsa", "Benoît", "Bruno", "Carmen", "Céline", "Dalia", "Dörte", "Edgar",
    "Eero", "Farida", "Florian", "Gonzalo", "Greta", "Hanne", "Héctor", "Ida", "Ignacy", "Irène",
    "Jakub", "Joëlle", "Jonas", "Kasia", "Kofi", "Lars", "Lucía", "Magnus", "Manon", "Mirela",
    "Nadia", "Nikolai", "Ottilie", "Pablo", "Petra", "Rafael", "Sabine", "Selma", "Stéphane", "Tomás",
    "Valérie", "Viggo", "Wanda", "Xavier", "Yara", "Zdeněk", "Ömer", "Åke",
    "美咲", "陽翔", "結衣", "葵", "大翔", "凛",
]
LAST_NAMES = [
    "Abbott", "Adeyemi", "Álvarez", "Andersson", "Bauer", "Bernard", "Bianchi", "Brennan", "Castillo",
    "Černý", "Costa", "Dąbrowski", "Delacroix", "Dubois", "Eriksen", "Esposito", "Fernández", "Fischer",
    "Fontaine", "García", "Girard", "Gómez", "Grünewald", "Haas", "Hansen", "Hernández", "Hoffmann",
    "Ibáñez", "Jansen", "Jiménez", "Kowalski", "Krüger", "Lambert", "Larsen", "Laurent", "Lefèvre",
    "Lindqvist", "López", "Martínez", "Mercier", "Møller", "Moreau", "Müller", "Nielsen", "Novák",
    "Núñez", "O'Brien", "Olsen", "Ortega", "Pérez", "Petrov", "Quiroga", "Ramírez", "Richter",
    "Rossi", "Ruiz", "Sánchez", "Schäfer", "Schmidt", "Silva", "Sørensen", "Suárez", "Svensson",
    "Thibault", "Torres", "Urbański", "Vargas", "Vázquez", "Vogel", "Wagner", "Weiß", "Wójcik",
    "Yılmaz", "Zeller", "Zieliński", "Åberg", "Østergaard", "Ferreira", "Navarro", "Rocha",
    "Marchetti", "Kovačević", "Horváth", "Popescu", "Nowak", "Lindgren", "Björklund", "Okafor",
    "Mensah", "Haddad", "Kaplan", "Demir", "Farouk", "Nakamura", "Takahashi", "Ishikawa",
    "山田", "佐藤", "鈴木", "高橋", "渡辺", "中村",
]
NATIONALITIES = [
    "French", "Spanish", "Mexican", "Japanese", "Chinese", "German", "Danish", "Polish", "Italian",
    "Brazilian", "Norwegian", "Swedish", "Nigerian", "Ghanaian", "Turkish", "Czech", "Irish",
    "American", "Canadian", "Peruvian", "Québécoise", "Ivoirien", "Malagasy", "Chilean",
]

ADJECTIVES = [
    "Blue", "Quiet", "Golden", "Broken", "Late", "Early", "Red", "Silent", "Distant", "Hidden",
    "Bright", "Pale", "Northern", "Southern", "Small", "Great", "Last", "First", "Green", "Dark",
    "Éternel", "Sombre", "Doré", "Lumière", "静かな", "青い", "Frozen", "Wild", "Little", "Old",
]
NOUNS = [
    "Harbour", "Coast", "Garden", "Window", "Mountain", "River", "Portrait", "Still Life", "Field",
    "Bridge", "Market", "Forest", "Lighthouse", "Orchard", "Courtyard", "Station", "Dancer", "Boat",
    "Cathedral", "Meadow", "Café", "Étude", "Fenêtre", "山水", "風景", "海", "Storm", "Nocturne",
]
PLACES = [
    "Étretat", "Giverny", "Kyōto", "京都", "Arles", "Toledo", "Bergen", "Kraków", "Oaxaca", "Skagen",
    "Honfleur", "Sevilla", "Córdoba", "Lübeck", "Nice", "Porto", "Zürich", "Hội An", "Montréal", "Cádiz",
]
EMOJI = ["🌊", "🎨", "🌸", "🔥", "🌙", "⛵", "🖼️", "🏔️"]
TAGS = [
    "oil", "coast", "portrait", "landscape", "watercolour", "abstract", "sea", "night", "still life",
    "city", "gouache", "étude", "paysage d'été", "水墨", "printmaking", "bronze", "figure", "light",
    "winter", "garden", "\"naïve\"", "etching, drypoint",
]
NOTE_PARTS = [
    "Acquired at auction", "gift of the artist's family", "restored in 1998", "on loan, see file",
    "frame replaced", "signed lower right", "provenance: Galerie Müller, Zürich",
    'labelled "not for sale"', "exhibited in Kyōto, 京都", "minor craquelure", "catalogue raisonné no. 12",
    "varnish yellowed; cleaning advised", "🎨 studio stamp on verso",
]

START = dt.datetime(2000, 1, 1, tzinfo=dt.timezone.utc)
SPAN_SECONDS = int((dt.datetime(2024, 12, 31, tzinfo=dt.timezone.utc) - START).total_seconds())


def ascii_fold(text):
    """Diacritics dropped: a check that two Latin names stay apart once transliterated."""
    return "".join(c for c in unicodedata.normalize("NFKD", text) if ord(c) < 128).lower()


def make_artists(count, rng):
    """`count` artists with unique (first, last) names, as dictionaries in a fixed order."""
    for pool in (FIRST_NAMES, LAST_NAMES):
        folded = [ascii_fold(n) for n in pool if all(ord(c) < 0x3000 for c in n)]
        assert len(folded) == len(set(folded)), "name pool folds to duplicates"
    capacity = len(FIRST_NAMES) * len(LAST_NAMES)
    pairs = []
    if count <= capacity:
        picks = rng.sample(range(capacity), count)
        for k in picks:
            pairs.append((FIRST_NAMES[k % len(FIRST_NAMES)], LAST_NAMES[k // len(FIRST_NAMES)]))
    else:
        # More artists than pairs: a middle initial keeps every name unique.
        for k in range(count):
            first = FIRST_NAMES[k % len(FIRST_NAMES)]
            last = LAST_NAMES[(k // len(FIRST_NAMES)) % len(LAST_NAMES)]
            initial = k // capacity
            if initial:
                first = f"{first} {chr(ord('A') + (initial - 1) % 26)}{'' if initial <= 26 else initial}."
            pairs.append((first, last))
    artists = []
    for first, last in pairs:
        born = dt.date(1900, 1, 1) + dt.timedelta(days=rng.randrange(0, 100 * 365))
        artists.append({
            "firstName": first,
            "lastName": last,
            "born": born.isoformat(),
            "nationality": rng.choice(NATIONALITIES),
        })
    return artists


def make_title(rng, catalog_number):
    """A title unique by its catalogue number, with commas, quotes, newlines, é, 漢字 and emoji."""
    adjective, noun, place = rng.choice(ADJECTIVES), rng.choice(NOUNS), rng.choice(PLACES)
    style = rng.randrange(10)
    if style < 4:
        title = f"{adjective} {noun}, {place} No. {catalog_number}"
    elif style < 6:
        title = f'The "{adjective}" {noun} ({catalog_number})'
    elif style < 8:
        title = f"{noun} at {place}, study {catalog_number}"
    elif style == 8:
        title = f"{adjective} {noun} {rng.choice(EMOJI)} #{catalog_number}"
    else:
        title = f"{place}の{noun} {catalog_number}"
    if rng.random() < 0.02:
        title += "\n(second state)"
    return title


def make_artwork(index, rng, artists):
    """Row `index` (0-based) as a dictionary of Python values."""
    catalog_number = 100_000 + index * 3 + rng.randrange(3)  # unique and increasing
    artist = rng.choice(artists)
    created = START + dt.timedelta(seconds=rng.randrange(SPAN_SECONDS))
    tags = rng.sample(TAGS, rng.randint(1, 4))
    if rng.random() < 0.35:
        notes = ""
    else:
        notes = ", ".join(rng.sample(NOTE_PARTS, rng.randint(1, 3)))
        if rng.random() < 0.05:
            notes += "\nSee also the conservation report."
    return {
        "catalogNumber": catalog_number,
        "title": make_title(rng, catalog_number),
        "artist": f"{artist['firstName']} {artist['lastName']}",
        "created": created,
        "price": round(rng.uniform(50, 250_000), 2),
        "copies": rng.randint(1, 500),
        "onDisplay": rng.random() < 0.4,
        "latitude": round(rng.uniform(-90, 90), 6),
        "longitude": round(rng.uniform(-180, 180), 6),
        "tags": tags,
        "notes": notes,
    }


ARTWORK_COLUMNS = ["catalogNumber", "title", "artist", "created", "price", "copies", "onDisplay",
                   "latitude", "longitude", "tags", "notes"]


def iso(timestamp):
    return timestamp.strftime("%Y-%m-%dT%H:%M:%SZ")


def csv_row(row):
    return [
        row["catalogNumber"], row["title"], row["artist"], iso(row["created"]), f"{row['price']:.2f}",
        row["copies"], "true" if row["onDisplay"] else "false", f"{row['latitude']:.6f}",
        f"{row['longitude']:.6f}", json.dumps(row["tags"], ensure_ascii=False), row["notes"],
    ]


def json_object(row):
    obj = dict(row)
    obj["created"] = iso(row["created"])
    obj["notes"] = row["notes"] or None
    return obj


def plist_object(row):
    obj = dict(row)
    obj["created"] = row["created"].replace(tzinfo=None)  # plistlib writes naive datetimes as UTC
    if not row["notes"]:
        del obj["notes"]  # a property list has no null
    return obj


def write_artists(path, artists, record_names=None):
    with open(path, "w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f, lineterminator="\n")
        name_column = ["recordName"] if record_names else []
        writer.writerow(name_column + ["firstName", "lastName", "born", "nationality"])
        for a in artists:
            name_cell = [record_names[artist_key(a)]] if record_names else []
            writer.writerow(name_cell + [a["firstName"], a["lastName"], a["born"], a["nationality"]])


def artist_key(artist):
    """An artist's natural key, as the plain artworks.csv names it."""
    return f"{artist['firstName']} {artist['lastName']}"


def artist_record_names(artists):
    """Explicit record names for the named variant: `Zoë-Müller-17`, unique by the position."""
    return {artist_key(a): f"{a['firstName']}-{a['lastName']}-{i + 1}" for i, a in enumerate(artists)}


def artwork_record_name(catalog_number):
    """An artwork's explicit name: a place (half of them non-ASCII) and the catalogue number."""
    return f"{PLACES[catalog_number % len(PLACES)]}-{catalog_number}"


class Variant:
    """How one variant's files differ from the plain ones: their columns, and each row's cells."""

    def __init__(self, name, artists):
        # The second batch is written as the named files are, after their rows.
        self.name = "named" if name == "second" else name
        self.artist_names = artist_record_names(artists) if self.name == "named" else None

    def artwork_columns(self):
        if self.name == "named":
            return ["recordName"] + ARTWORK_COLUMNS
        if self.name == "untitled":
            return ["caption" if c == "title" else c for c in ARTWORK_COLUMNS]
        return ARTWORK_COLUMNS

    def artwork(self, row):
        """The row as this variant writes it: the artist by record name for `named`."""
        if self.name != "named":
            return row
        return dict(row, artist=self.artist_names[row["artist"]])

    def csv_cells(self, row):
        cells = csv_row(self.artwork(row))
        if self.name == "named":
            return [artwork_record_name(row["catalogNumber"])] + cells
        return cells

    def json_object(self, row):
        obj = json_object(self.artwork(row))
        if self.name == "named":
            return {"recordName": artwork_record_name(row["catalogNumber"]), **obj}
        if self.name == "untitled":
            return {("caption" if k == "title" else k): v for k, v in obj.items()}
        return obj


def artwork_stream(seed, rows, variant):
    """The random stream the artworks come from, and the index of the first: the second batch's
    rows follow the first `rows`, from a stream of their own (so that they need not be drawn again)."""
    if variant == "second":
        return random.Random(f"{seed}-artworks-second"), rows
    return random.Random(f"{seed}-artworks"), 0


def generate(rows, seed, out, formats, plist_rows, variant="plain"):
    os.makedirs(out, exist_ok=True)
    rng = random.Random(seed)
    artists = make_artists(max(1, rows // 100), rng)
    shape = Variant(variant, artists)
    write_artists(os.path.join(out, "artists.csv"), artists, shape.artist_names)
    written = ["artists.csv"]

    streams = [f for f in ("csv", "jsonl", "json") if f in formats]
    if streams:
        csv_file = jsonl_file = json_file = None
        try:
            if "csv" in streams:
                csv_file = open(os.path.join(out, "artworks.csv"), "w", newline="", encoding="utf-8")
                csv_writer = csv.writer(csv_file, lineterminator="\n")
                csv_writer.writerow(shape.artwork_columns())
            if "jsonl" in streams:
                jsonl_file = open(os.path.join(out, "artworks.jsonl"), "w", encoding="utf-8")
            if "json" in streams:
                json_file = open(os.path.join(out, "artworks.json"), "w", encoding="utf-8")
                json_file.write("[\n")
            row_rng, first = artwork_stream(seed, rows, variant)
            for i in range(rows):
                row = make_artwork(first + i, row_rng, artists)
                if csv_file:
                    csv_writer.writerow(shape.csv_cells(row))
                if jsonl_file or json_file:
                    text = json.dumps(shape.json_object(row), ensure_ascii=False)
                    if jsonl_file:
                        jsonl_file.write(text + "\n")
                    if json_file:
                        json_file.write(("" if i == 0 else ",\n") + text)
            if json_file:
                json_file.write("\n]\n")
        finally:
            for f in (csv_file, jsonl_file, json_file):
                if f:
                    f.close()
        written += [{"csv": "artworks.csv", "jsonl": "artworks.jsonl", "json": "artworks.json"}[f] for f in streams]

    if "plist" in formats and variant == "plain":
        plist_rng = random.Random(f"{seed}-plist")
        items = [plist_object(make_artwork(i, plist_rng, artists)) for i in range(plist_rows)]
        with open(os.path.join(out, "artworks.plist"), "wb") as f:
            plistlib.dump(items, f, fmt=plistlib.FMT_XML, sort_keys=False)
        with open(os.path.join(out, "artworks.binary.plist"), "wb") as f:
            plistlib.dump(items, f, fmt=plistlib.FMT_BINARY, sort_keys=False)
        written += ["artworks.plist", "artworks.binary.plist"]
    return written


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, default=100_000, help="Artwork rows (Artists: rows/100); default 100000")
    parser.add_argument("--seed", type=int, default=7, help="random seed; default 7")
    parser.add_argument("--out", default="bench-data", help="output folder; default ./bench-data")
    parser.add_argument("--formats", default="csv,jsonl,json,plist",
                        help="comma-separated among csv,jsonl,json,plist; default all")
    parser.add_argument("--plist-rows", type=int, default=100_000,
                        help="Artwork rows of the property lists; default 100000")
    parser.add_argument("--variant", default="plain", choices=VARIANTS,
                        help="plain (default); named: a recordName column and artists referred to by record name; "
                             "untitled: no natural-key column (title becomes caption); second: named's next N "
                             "artworks; variants write no property lists")
    args = parser.parse_args(argv)
    formats = [f.strip() for f in args.formats.split(",") if f.strip()]
    unknown = [f for f in formats if f not in FORMATS]
    if unknown:
        parser.error(f"unknown format(s) {', '.join(unknown)}; choose among {', '.join(FORMATS)}")
    if args.rows < 1 or args.plist_rows < 1:
        parser.error("--rows and --plist-rows must be at least 1")
    written = generate(args.rows, args.seed, args.out, formats, args.plist_rows, args.variant)
    for name in written:
        path = os.path.join(args.out, name)
        print(f"{path}\t{os.path.getsize(path):,} bytes", file=sys.stderr)


if __name__ == "__main__":
    main()
