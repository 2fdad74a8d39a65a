#!/usr/bin/env python3
"""The export workloads of cloudseed's benchmark (issue 7): every record as CloudKit JSON Lines beside
`sqlite3 -json`, and the Artworks as CSV beside `sqlite3 -csv`, both from the stores the CSV import
filled (which runs first), each output counted. Alone:

    python3 Benchmarks/exports.py --rows 100000 --runs 1
"""

import math
import re
import subprocess
import sys
import time

from bench import run_workloads
from imports import CSV_STEPS
from measure import arguments, parse, ratio, run_process


def export(bench):
    total = bench.rows + bench.artists
    tools = []
    if bench.tools["sqlite3"]:
        tools.append(("sqlite3 -json", lambda run: [[bench.tools["sqlite3"], "-json", bench.sqlite3_db, "select * from artworks"]], None))
    tools.append(("cloudseed", lambda run: [bench.cs("export", "--format", "jsonl", "--store", bench.cloudseed_store)], None))
    m = bench.alternate("export JSON Lines", tools)
    cs, base = m["cloudseed"], m.get("sqlite3 -json")
    r = ratio(cs.time, base.time) if base else math.nan
    bench.row("export of all records as CloudKit JSON Lines (> /dev/null)", cs, total,
              bench.peer_cell(m, [("sqlite3 -json", "sqlite3 -json (artworks)")]), r, "sqlite3 -json",
              "≤ 2.0× sqlite3 -json (aim ≤ 1.0×)", None if r != r else r <= 2.0)
    # export sanity: one line per record
    lines = count_export_lines(bench.cs("export", "--format", "jsonl", "--store", bench.cloudseed_store), bench.args.timeout)
    bench.checks.append(("export --format jsonl prints one line per record", lines == total, f"{lines} lines, expected {total}"))

    help_run = run_process(bench.cs("export", "--help"), 60, capture_stdout=True)
    has_csv = help_run.ok and re.search(r"\bcsv\b", help_run.stdout, re.I) is not None
    tools = []
    if bench.tools["sqlite3"]:
        tools.append(("sqlite3 -csv", lambda run: [[bench.tools["sqlite3"], "-csv", "-header", bench.sqlite3_db, "select * from artworks"]], None))
    if has_csv:
        tools.append(("cloudseed", lambda run: [bench.cs("export", "--format", "csv", "--type", "Artwork", "--store", bench.cloudseed_store)], None))
    m = bench.alternate("export CSV", tools)
    base = m.get("sqlite3 -csv")
    peers = bench.peer_cell(m, [("sqlite3 -csv", "sqlite3 -csv")])
    if has_csv:
        cs = m["cloudseed"]
        lines = count_export_lines(bench.cs("export", "--format", "csv", "--type", "Artwork", "--store", bench.cloudseed_store), bench.args.timeout)
        bench.checks.append(("export --format csv --type Artwork prints a header and every Artwork",
                             lines is not None and lines >= bench.rows + 1, f"{lines} lines (embedded newlines add some), at least {bench.rows + 1} expected"))
        r = ratio(cs.time, base.time) if base else math.nan
        bench.row("export as CSV (Artwork)", cs, bench.rows, peers, r, "sqlite3 -csv", "≤ 1.5× sqlite3 -csv (aim ≤ 1.0×)", None if r != r else r <= 1.5)
    else:
        bench.rows_out.append(["export as CSV", "n/a (not yet)", "—", "—", peers, "—", "≤ 1.5× sqlite3 -csv (aim ≤ 1.0×)", "—"])


def count_export_lines(argv, timeout):
    try:
        proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    except OSError:
        return None
    lines = 0
    deadline = time.monotonic() + timeout
    while True:
        chunk = proc.stdout.read(1 << 20)
        if not chunk:
            break
        lines += chunk.count(b"\n")
        if time.monotonic() > deadline:
            proc.kill()
            break
    proc.wait()
    return lines if proc.returncode == 0 else None


STEPS = [("export", export)]


def main(argv=None):
    parser = arguments(__doc__)
    args, only = parse(parser, argv, ["export"])
    return run_workloads(args, only, CSV_STEPS + STEPS)


if __name__ == "__main__":
    sys.exit(main())
