"""One run of cloudseed's benchmark: the `Bench` that every workload times its tools with (fresh
processes, alternating) and writes its table rows, checks, notes and failures into; the stores it
leaves and the import summaries it reads; and `run`, which builds cloudseed, generates the data,
runs the chosen workloads and prints the report."""

import datetime as dt
import json
import os
import re
import shutil
import sys
import tempfile
import time

from data import ensure_data
from measure import (BUILD_LOCK, REPO, Measure, build, find_tools, fmt_mb, fmt_rate, fmt_ratio, fmt_seconds, log,
                     machine_header, run_process, runs_summary)
from report import render

# Workloads that need neither the SQLite CSV import's store nor its time: `--only postgres` and
# `--only shapes` run alone.
INDEPENDENT = {"postgres", "shapes"}
# Workloads that read the CSV import's store: skipped, with a row saying so, when it left none.
NEEDS_STORE = {"reimport", "change", "export"}


class Bench:
    """What one run measured: each workload's Measures, the main table's rows, the checks, notes and
    failures, the sections (the shape matrix), and the stores the CSV import kept for the others."""

    def __init__(self, args, tools, data, work):
        self.args, self.tools, self.data, self.work = args, tools, data, work
        self.rows = args.rows
        self.artists = max(1, args.rows // 100)
        self.results = {}   # workload -> {tool name: Measure}
        self.rows_out = []  # table rows
        self.notes = []
        self.failures = []
        self.checks = []
        self.sections = []  # (title, intro lines, columns, rows, checks, notes): the shape matrix
        self.cloudseed_store = os.path.join(work, "filled.sqlite")  # the kept cloudseed CSV import
        self.sqlite3_db = os.path.join(work, "filled-sqlite3.db")   # the kept sqlite3 .import
        self.full_summary = None

    # -- helpers

    def cs(self, *argv):
        return [self.tools["cloudseed"], *argv]

    def alternate(self, workload, tools, count=None):
        """tools: [(name, prepare() -> [argv, ...], after(runs) or None)]; runs them alternating,
        `count` times each (--runs unless given)."""
        measures = {name: Measure(name) for name, _, _ in tools}
        total = count or self.args.runs
        for run in range(total):
            for name, prepare, after in tools:
                m = measures[name]
                if m.failure:
                    continue
                commands = prepare(run)
                runs = []
                for argv in commands:
                    # Only an import's or a seed's summary is kept; an export's output goes to /dev/null.
                    summary = argv[0] == self.tools["cloudseed"] and len(argv) > 1 and argv[1] in ("import", "seed")
                    r = run_process(argv, self.args.timeout, capture_stdout=summary)
                    runs.append(r)
                    if not r.ok:
                        break
                ok = m.add(runs)
                if ok:
                    log(f"{workload}: {name} run {run + 1}/{total}: {runs_summary(runs)}")
                    if after:
                        after(run, runs)
                else:
                    r = m.failure
                    log(f"{workload}: {name} FAILED ({r.why()}): {' '.join(r.argv)}\n{r.stderr[-3000:]}")
                    self.failures.append((workload, name, r))
        self.results[workload] = measures
        return measures

    def row(self, work, cs, rows, peers, ratio_value, ratio_label, target, holds, rss=None):
        self.rows_out.append(self.table_row(work, cs, rows, peers, ratio_value, ratio_label, target, holds, rss))

    def table_row(self, work, cs, rows, peers, ratio_value, ratio_label, target, holds, rss=None):
        if cs is not None and not cs.ok:
            cs_time = "failed" if cs.failure else "n/a"
            rate = rss_cell = "—"
        elif cs is not None:
            cs_time = fmt_seconds(cs.time)
            rate = fmt_rate(rows, cs.time)
            rss_cell = fmt_mb(cs.rss_mb)
        else:
            cs_time = rate = rss_cell = "—"
        if rss is not None:
            rss_cell = rss
        ratio_cell = f"{fmt_ratio(ratio_value)} {ratio_label}".strip() if ratio_value == ratio_value and ratio_value is not None else "—"
        if holds is None:
            holds_cell = "—"
        else:
            holds_cell = "yes" if holds else "**no**"
        return [work, cs_time, rate, rss_cell, peers, ratio_cell, target, holds_cell]

    def peer_cell(self, measures, labels):
        parts = []
        for key, label in labels:
            m = measures.get(key)
            if m is None:
                parts.append(f"{label}: not installed")
            else:
                parts.append(f"{label} {m.cell()}")
        return "; ".join(parts)

    # -- the imports every workload may time: sqlite3's (the floor) and cloudseed's

    def sqlite3_import(self, folder, keep=False):
        def prepare(run):
            db = os.path.join(self.work, "peer-sqlite3.db")
            remove_store(db)
            return [[self.tools["sqlite3"], db,
                     f'.import --csv "{os.path.join(folder, "artists.csv")}" artists',
                     f'.import --csv "{os.path.join(folder, "artworks.csv")}" artworks']]

        def after(run, runs):
            if keep:
                remove_store(self.sqlite3_db)
                os.replace(os.path.join(self.work, "peer-sqlite3.db"), self.sqlite3_db)
        return ("sqlite3", prepare, after)

    def cloudseed_import(self, files, name="cloudseed", keep_as=None, extra=()):
        def prepare(run):
            store = os.path.join(self.work, f"fresh-{slug(name)}.sqlite")
            remove_store(store)
            return [self.cs("import", *files, "--store", store, "--json", *extra)]

        def after(run, runs):
            if keep_as:
                store = os.path.join(self.work, f"fresh-{slug(name)}.sqlite")
                remove_store(keep_as)
                for suffix in ("", "-wal", "-shm"):
                    if os.path.exists(store + suffix):
                        os.replace(store + suffix, keep_as + suffix)
        return (name, prepare, after)


# --------------------------------------------------------------------------------------------
# Stores, and cloudseed's import summaries


def remove_store(path):
    for suffix in ("", "-wal", "-shm", "-journal"):
        try:
            os.remove(path + suffix)
        except FileNotFoundError:
            pass


def copy_store(source, target):
    """Copies a store, and writes the copy to disk, so that the timed run does not pay for that."""
    remove_store(target)
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(source + suffix):
            shutil.copyfile(source + suffix, target + suffix)
    os.sync()


def parse_summary(stdout):
    """cloudseed import --json's summary, or None."""
    text = stdout.strip()
    if not text:
        return None
    try:
        return json.loads(text)
    except ValueError:
        start = text.find("{")
        try:
            return json.loads(text[start:]) if start >= 0 else None
        except ValueError:
            return None


def counts_of(summary, record_type):
    if not summary:
        return None
    for t in summary.get("recordTypes", []):
        if t.get("name") == record_type:
            return {k: t.get(k) for k in ("created", "updated", "unchanged")}
    return None


def artwork_naming(summary, record_type="Artwork"):
    if not summary:
        return None
    for t in summary.get("recordTypes", []):
        if t.get("name") == record_type:
            return t.get("naming")
    return None


def slug(name):
    return re.sub(r"[^A-Za-z0-9]+", "-", name).strip("-")


# --------------------------------------------------------------------------------------------
# One run


def run_workloads(args, only, steps):
    """Runs the chosen workloads' steps into one Bench and prints its report; returns the exit code.
    steps: [(workload, step(bench))], in the report's order. The CSV import's steps run with any
    workload but the INDEPENDENT ones, since the others use its store."""
    tools = find_tools(args)
    if not args.cloudseed and not args.no_build:
        ok, output = build(args.build_timeout)
        if not ok:
            print(f"cloudseed's release build failed:\n{output}", file=sys.stderr)
            if os.path.exists(tools["cloudseed"]):
                log(f"going on with the existing {tools['cloudseed']} (built {time.ctime(os.path.getmtime(tools['cloudseed']))})")
            else:
                return 1
    if not os.access(tools["cloudseed"], os.X_OK):
        print(f"no cloudseed binary at {tools['cloudseed']}: build it with "
              f"`cd {REPO} && flock {BUILD_LOCK} swift build -c release --product cloudseed`", file=sys.stderr)
        return 1

    temporary = not args.work
    work = args.work or tempfile.mkdtemp(prefix="cloudseed-bench-")
    os.makedirs(work, exist_ok=True)
    # Measure a private copy: another build replacing .build/release/cloudseed mid-run changes nothing.
    measured = os.path.join(work, "cloudseed")
    if os.path.abspath(tools["cloudseed"]) != measured:
        shutil.copy2(tools["cloudseed"], measured)
        tools["built"] = tools["cloudseed"]
        tools["cloudseed"] = measured
    data_root = os.path.abspath(args.data) if args.data else os.path.join(work, "data")
    log(f"work folder {work}; data {data_root}")
    try:
        data = ensure_data(args, data_root, only)
        bench = Bench(args, tools, data, work)
        load_start = os.getloadavg()[0]
        started = dt.datetime.now(dt.timezone.utc)

        run_csv = "csv" in only or bool(only - INDEPENDENT)
        for name, step in steps:
            if name not in only and not (name == "csv" and run_csv):
                continue
            if name in NEEDS_STORE and not os.path.exists(bench.cloudseed_store):
                bench.rows_out.append([f"{name}: skipped", "—", "—", "—", "—", "—", "—", "—"])
                bench.notes.append(f"{name} skipped: the cloudseed CSV import left no store")
                continue
            try:
                step(bench)
            except Exception as error:  # a broken workload is reported, the others still run
                import traceback
                log(f"{name} crashed:\n{traceback.format_exc()}")
                bench.notes.append(f"the {name} workload stopped on {type(error).__name__}: {error}")
        header = machine_header(args, tools, started) + (
            f"\n- load average (1 min) at the start {load_start:.2f}, at the end {os.getloadavg()[0]:.2f}"
            " (other work on the machine slows the times)")
        report = render(bench, header)
        print(report)
        if args.output:
            with open(args.output, "w", encoding="utf-8") as f:
                f.write(report)
    finally:
        if temporary and not args.keep:
            shutil.rmtree(work, ignore_errors=True)
        else:
            log(f"kept {work}")
    return 0
