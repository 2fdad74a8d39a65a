#!/usr/bin/env python3
"""cloudseed's benchmark (issue 7): cloudseed side by side with sqlite3 and sqlite-utils.

    python3 Benchmarks/run.py --rows 1000000          # the issue's size, 3 runs each, median
    python3 Benchmarks/run.py --rows 100000 --runs 1  # a quick look
    python3 Benchmarks/run.py --only postgres --postgres postgres://USER@HOST/DB  # issue 9: beside psql \copy
    python3 Benchmarks/run.py --only shapes           # issue 34: the shape matrix alone

It builds cloudseed in release (through the shared build lock), generates N Artworks and N/100
Artists with Benchmarks/generate.py, runs every workload with the peers and cloudseed alternating,
each run a fresh process importing into a fresh store file, and prints a Markdown table: the median
wall time, rows/s and peak RSS (`/usr/bin/time -f %M`), the peers' times, the ratio to
the stated peer, issue 7's target and whether it holds. It then checks the cloudseed CSV import:
row counts, every reference resolved, a sample of typed values against the source.

The `shapes` workload (issue 34) prints a second table: the import in each shape a user brings
(record names from a column, a template, a natural key, by position or random; CSV, JSON Lines, one
JSON array, property lists; `seed` with a schema; production; re-import; changes; PostgreSQL), each
beside `sqlite3 .import` of the same CSVs in the same run, with each store's counts checked.

Nothing is installed: without sqlite-utils (`pip install sqlite-utils`) or the sqlite3 shell
(`apt-get install sqlite3`) their columns say "not installed". See Benchmarks/README.md.
"""

import argparse
import csv
import datetime as dt
import json
import math
import os
import platform
import re
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time

from postgres import PostgresWorkload

BENCH_DIR = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(BENCH_DIR)
BUILD_LOCK = "/tmp/cloudseed-build.lock"
WORKLOADS = ["csv", "jsonl", "json", "memory", "reimport", "change", "export", "plist", "shapes", "postgres"]
# Workloads that need neither the SQLite CSV import's store nor its time: `--only postgres` and
# `--only shapes` run alone.
INDEPENDENT = {"postgres", "shapes"}


def log(message):
    print(f"[{time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


# --------------------------------------------------------------------------------------------
# Running and measuring one process


class Run:
    """One finished process: wall seconds, peak RSS in KiB, exit code, its stderr and stdout."""

    def __init__(self, argv, seconds=math.nan, rss_kib=0, rc=None, stderr="", stdout="", timed_out=False, error=None):
        self.argv, self.seconds, self.rss_kib, self.rc = argv, seconds, rss_kib, rc
        self.stderr, self.stdout, self.timed_out, self.error = stderr, stdout, timed_out, error

    @property
    def ok(self):
        return self.error is None and not self.timed_out and self.rc == 0

    def why(self):
        if self.error:
            return self.error
        if self.timed_out:
            return f"timed out after {self.seconds:.0f} s"
        return f"exit code {self.rc}"


GNU_TIME = "/usr/bin/time" if os.access("/usr/bin/time", os.X_OK) else None


def run_process(argv, timeout, capture_stdout=False):
    """Runs argv once as a fresh process, in its own process group, and measures its wall time
    and peak RSS. The RSS comes from `/usr/bin/time -f %M`: the rusage that wait4 gives this script
    directly would count the RSS of this Python process too (the child starts as its copy: Linux
    keeps the larger of the pre-exec and post-exec high-water marks)."""
    err_file = tempfile.TemporaryFile()
    out_file = tempfile.TemporaryFile() if capture_stdout else subprocess.DEVNULL
    rss_path = None
    command = argv
    if GNU_TIME:
        fd, rss_path = tempfile.mkstemp(prefix="cloudseed-bench-rss-")
        os.close(fd)
        command = [GNU_TIME, "-f", "%M", "-o", rss_path, *argv]
    start = time.perf_counter()
    try:
        proc = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=out_file, stderr=err_file, start_new_session=True)
    except OSError as error:
        return Run(argv, error=f"could not start {command[0]}: {error}")
    timed_out = threading.Event()

    def kill():
        timed_out.set()
        try:
            os.killpg(proc.pid, 9)
        except OSError:
            pass

    timer = threading.Timer(timeout, kill)
    timer.start()
    try:
        _, status, usage = os.wait4(proc.pid, 0)
    finally:
        timer.cancel()
    seconds = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)

    def read(f):
        f.seek(0)
        return f.read().decode("utf-8", "replace")

    stderr = read(err_file)
    stdout = read(out_file) if capture_stdout else ""
    err_file.close()
    if capture_stdout:
        out_file.close()
    rss_kib = usage.ru_maxrss
    if rss_path:
        rss_kib = 0
        try:
            with open(rss_path) as f:
                lines = [line.strip() for line in f if line.strip()]
            rss_kib = int(lines[-1])
        except (OSError, ValueError, IndexError):
            pass
        os.remove(rss_path)
    return Run(argv, seconds, rss_kib, proc.returncode, stderr, stdout, timed_out.is_set())


class Measure:
    """A tool's runs in one workload. A step may be several processes (sqlite-utils inserts two
    files with two commands): their times add up and the peak RSS is the largest."""

    def __init__(self, name):
        self.name = name
        self.times, self.rss = [], []
        self.failure = None
        self.last_stdout = ""

    def add(self, runs):
        failed = next((r for r in runs if not r.ok), None)
        if failed:
            self.failure = failed
            return False
        self.times.append(sum(r.seconds for r in runs))
        self.rss.append(max(r.rss_kib for r in runs))
        self.last_stdout = runs[-1].stdout
        return True

    @property
    def ok(self):
        return self.failure is None and bool(self.times)

    @property
    def time(self):
        return statistics.median(self.times) if self.ok else math.nan

    @property
    def rss_mb(self):
        return statistics.median(self.rss) * 1024 / 1e6 if self.ok else math.nan

    def cell(self):
        if self.ok:
            return fmt_seconds(self.time)
        if self.failure:
            return "failed"
        return "n/a"


def fmt_seconds(s):
    if s != s:
        return "—"
    return f"{s:.2f} s" if s < 100 else f"{s:.0f} s"


def fmt_mb(mb):
    return "—" if mb != mb else f"{mb:,.0f} MB" if mb >= 10 else f"{mb:.1f} MB"


def fmt_rate(rows, s):
    return "—" if s != s or s <= 0 else f"{rows / s:,.0f}"


def fmt_ratio(r):
    return "—" if r is None or r != r else f"{r:.2f}×" if r < 100 else f"{r:,.0f}×"


def ratio(a, b):
    if a != a or b != b or b <= 0:
        return math.nan
    return a / b


# --------------------------------------------------------------------------------------------
# The machine, the tools, the build


def machine_header(args, tools, started):
    cpu = "unknown"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        cpu = platform.processor() or "unknown"
    try:
        nproc = subprocess.run(["nproc"], capture_output=True, text=True).stdout.strip()
    except OSError:
        nproc = str(os.cpu_count())
    mem = ""
    try:
        with open("/proc/meminfo") as f:
            kib = int(f.readline().split()[1])
            mem = f"{kib / 1024 / 1024:.1f} GiB"
    except (OSError, ValueError, IndexError):
        pass
    commit = git("rev-parse", "--short", "HEAD") or "unknown"
    binary = tools.get("built", tools["cloudseed"])
    binary = os.path.relpath(binary, REPO) if binary.startswith(REPO + os.sep) else binary
    dirty = git("status", "--porcelain", "--", "Sources", "Package.swift", "Package.resolved")
    lines = [
        f"# cloudseed benchmark — {started.strftime('%Y-%m-%d %H:%M UTC')}",
        "",
        f"- machine: `nproc` = {nproc}, CPU {cpu}, memory {mem}, {platform.system()} {platform.release()}",
        f"- cloudseed: commit {commit}{' with uncommitted changes in Sources/' if dirty else ''}, binary `{binary}` "
        f"(built {time.strftime('%Y-%m-%d %H:%M', time.gmtime(os.path.getmtime(tools['cloudseed'])))} UTC)",
        f"- peers: sqlite3 {tools.get('sqlite3_version') or 'not installed'}; sqlite-utils {tools.get('sqlite_utils_version') or 'not installed'}; Python {platform.python_version()}",
        f"- data: {args.rows:,} Artworks + {max(1, args.rows // 100):,} Artists, seed {args.seed}; property lists {args.plist_rows:,} rows; "
        f"{args.runs} run(s) per tool ({args.plist_runs} for the property lists), alternating, median; timeout {args.timeout:.0f} s per run",
        f"- command: `python3 Benchmarks/run.py {' '.join(sys.argv[1:])}`",
    ]
    return "\n".join(lines)


def git(*argv):
    try:
        out = subprocess.run(["git", "-C", REPO, *argv], capture_output=True, text=True, timeout=30)
        return out.stdout.strip() if out.returncode == 0 else ""
    except (OSError, subprocess.SubprocessError):
        return ""


def build(timeout):
    argv = ["flock", BUILD_LOCK, "swift", "build", "-c", "release", "--product", "cloudseed"]
    log("building: cd " + REPO + " && " + " ".join(argv))
    try:
        out = subprocess.run(argv, cwd=REPO, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return False, f"the build took longer than {timeout:.0f} s"
    except OSError as error:
        return False, str(error)
    if out.returncode != 0:
        return False, (out.stdout + out.stderr)[-4000:]
    return True, ""


def find_tools(args):
    tools = {"cloudseed": os.path.abspath(args.cloudseed) if args.cloudseed else os.path.join(REPO, ".build", "release", "cloudseed")}
    tools["sqlite3"] = shutil.which("sqlite3")
    if tools["sqlite3"]:
        tools["sqlite3_version"] = subprocess.run([tools["sqlite3"], "--version"], capture_output=True, text=True).stdout.split(" ")[0]
    else:
        log("sqlite3 not found: install it (apt-get install sqlite3); its columns are skipped")
    tools["sqlite_utils"] = shutil.which("sqlite-utils")
    if tools["sqlite_utils"]:
        version = subprocess.run([tools["sqlite_utils"], "--version"], capture_output=True, text=True).stdout.strip()
        tools["sqlite_utils_version"] = version.split()[-1] if version else "?"
        help_text = subprocess.run([tools["sqlite_utils"], "insert", "--help"], capture_output=True, text=True).stdout
        flags = []
        # 3.x needs --detect-types for typed columns; 4.x detects by default (and has only --no-detect-types).
        if re.search(r"(^|\s)(-d, )?--detect-types\b", help_text, re.M):
            flags.append("--detect-types")
        if "--silent" in help_text:
            flags.append("--silent")
        tools["sqlite_utils_csv_flags"] = flags
        tools["sqlite_utils_nl_flags"] = [f for f in flags if f != "--detect-types"]
    else:
        log("sqlite-utils not found: install it with `pip install sqlite-utils`; its columns are skipped")
    return tools


# --------------------------------------------------------------------------------------------
# Data


def data_sets(args, only):
    """The data sets the chosen workloads read: name -> (rows, formats, files, variant)."""
    sets = {"full": (args.rows, "csv,jsonl,json", ["artists.csv", "artworks.csv", "artworks.jsonl", "artworks.json"], "plain")}
    if "memory" in only:
        sets["tenth"] = (max(1, args.rows // 10), "csv", ["artists.csv", "artworks.csv"], "plain")
    if only & {"plist", "shapes"}:
        sets["plist"] = (args.plist_rows, "plist", ["artworks.plist", "artworks.binary.plist"], "plain")
    if "shapes" in only:
        sets["named"] = (args.rows, "csv,jsonl,json", ["artists.csv", "artworks.csv", "artworks.jsonl", "artworks.json"], "named")
        sets["untitled"] = (args.rows, "csv", ["artists.csv", "artworks.csv"], "untitled")
    return sets


def ensure_data(args, data_root, only):
    """Generates the data sets the workloads need, each reused while the parameters that made it match
    (each set keeps its own params.json, since a run makes only the sets its workloads read)."""
    params = {"rows": args.rows, "seed": args.seed, "plist_rows": args.plist_rows, "generator": generator_stamp()}
    sets = data_sets(args, only)
    for name, (rows, formats, files, variant) in sets.items():
        folder = os.path.join(data_root, name)
        stamp = os.path.join(folder, "params.json")
        if read_json(stamp) == params and all(os.path.exists(os.path.join(folder, f)) for f in files):
            log(f"reusing {folder}")
            continue
        log(f"generating {rows:,} rows ({formats}{'' if variant == 'plain' else ', ' + variant}) into {folder}")
        argv = [sys.executable, os.path.join(BENCH_DIR, "generate.py"), "--rows", str(rows), "--seed", str(args.seed),
                "--out", folder, "--formats", formats, "--plist-rows", str(args.plist_rows), "--variant", variant]
        if name == "plist":
            argv[argv.index("--rows") + 1] = str(args.rows)  # the artists the plist rows name come from --rows
        subprocess.run(argv, check=True)
        with open(stamp, "w") as f:
            json.dump(params, f)
    return {name: os.path.join(data_root, name) for name in sets}


def read_json(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def generator_stamp():
    st = os.stat(os.path.join(BENCH_DIR, "generate.py"))
    return f"{st.st_size}-{int(st.st_mtime)}"


def file_mb(path):
    return os.path.getsize(path) / 1e6


def size_label(path):
    mb = file_mb(path)
    return f"{mb:,.0f} MB" if mb >= 10 else f"{mb:.1f} MB"


def slug(name):
    return re.sub(r"[^A-Za-z0-9]+", "-", name).strip("-")


# --------------------------------------------------------------------------------------------
# Stores


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


# --------------------------------------------------------------------------------------------
# The benchmark


class Bench:
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

    # -- workloads

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

    def sqlite_utils_import(self, folder, artworks_file, nl):
        flags = self.tools["sqlite_utils_nl_flags"] if nl else self.tools["sqlite_utils_csv_flags"]

        def prepare(run):
            db = os.path.join(self.work, "peer-sqlite-utils.db")
            remove_store(db)
            su = self.tools["sqlite_utils"]
            return [[su, "insert", db, "artists", os.path.join(folder, "artists.csv"), "--csv", *self.tools["sqlite_utils_csv_flags"]],
                    [su, "insert", db, "artworks", os.path.join(folder, artworks_file), "--nl" if nl else "--csv", *flags]]
        return ("sqlite-utils", prepare, None)

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

    def peers_for_import(self, folder, artworks_file, nl, keep_sqlite3=False):
        peers = []
        if self.tools["sqlite3"]:
            peers.append(self.sqlite3_import(folder, keep=keep_sqlite3))
        if self.tools["sqlite_utils"]:
            peers.append(self.sqlite_utils_import(folder, artworks_file, nl))
        return peers

    def csv_import(self):
        full = self.data["full"]
        tools = self.peers_for_import(full, "artworks.csv", nl=False, keep_sqlite3=True)
        tools.append(self.cloudseed_import([os.path.join(full, "artists.csv"), os.path.join(full, "artworks.csv")],
                                           keep_as=self.cloudseed_store))
        m = self.alternate("CSV import", tools)
        cs = m["cloudseed"]
        self.full_summary = parse_summary(cs.last_stdout) if cs.ok else None
        total = self.rows + self.artists
        base = m.get("sqlite3")
        r = ratio(cs.time, base.time) if base else math.nan
        self.row(f"CSV import, types inferred, references resolved ({self.rows:,} + {self.artists:,} rows, {size_label(os.path.join(full, 'artworks.csv'))})",
                 cs, total, self.peer_cell(m, [("sqlite3", "sqlite3 .import"), ("sqlite-utils", "sqlite-utils --csv")]),
                 r, "sqlite3", "≤ 2.0× sqlite3 (aim ≤ 1.0×)", None if r != r else r <= 2.0)
        su = m.get("sqlite-utils")
        faster = ratio(su.time, cs.time) if su else math.nan
        self.row("same vs `sqlite-utils insert --csv` (types detected)", cs, total,
                 self.peer_cell(m, [("sqlite-utils", "sqlite-utils --csv")]),
                 faster, "(sqlite-utils time ÷ cloudseed time)", "≥ 15× faster (aim ≥ 40×)", None if faster != faster else faster >= 15)
        if self.full_summary:
            self.notes.append("cloudseed's plan for the CSV import: " + describe_plan(self.full_summary))

    def jsonl_import(self):
        full = self.data["full"]
        tools = self.peers_for_import(full, "artworks.jsonl", nl=True)
        tools.append(self.cloudseed_import([os.path.join(full, "artists.csv"), os.path.join(full, "artworks.jsonl")]))
        m = self.alternate("JSON Lines import", tools)
        cs = m["cloudseed"]
        base = m.get("sqlite3")
        r = ratio(cs.time, base.time) if base else math.nan
        su = m.get("sqlite-utils")
        self.row(f"JSON Lines import ({size_label(os.path.join(full, 'artworks.jsonl'))}) + artists.csv", cs, self.rows + self.artists,
                 self.peer_cell(m, [("sqlite3", "sqlite3 .import of the CSV twin"), ("sqlite-utils", "sqlite-utils --nl")])
                 + (f" ({fmt_ratio(ratio(su.time, cs.time))} of cloudseed's time)" if su and su.ok and cs.ok else ""),
                 r, "sqlite3", "≤ 2.5× sqlite3 (aim ≤ 1.5×)", None if r != r else r <= 2.5)

    def json_array(self):
        full = self.data["full"]
        path = os.path.join(full, "artworks.json")
        tools = [("python json.load", lambda run: [[sys.executable, "-c", "import json,sys; json.load(open(sys.argv[1], encoding='utf-8'))", path]], None),
                 self.cloudseed_import([os.path.join(full, "artists.csv"), path])]
        m = self.alternate("JSON array import", tools)
        cs, py = m["cloudseed"], m["python json.load"]
        peer = f"Python json.load {py.cell()}, peak {fmt_mb(py.rss_mb)}"
        r = ratio(cs.rss_mb, py.rss_mb)
        self.row(f"one JSON array ({size_label(path)}) + artists.csv: peak memory", cs, self.rows + self.artists, peer,
                 r, "of json.load's memory", "peak ≤ 150 MB (aim ≤ 64 MB)", None if not cs.ok else cs.rss_mb <= 150)

    def memory_ratio(self):
        tenth = self.data["tenth"]
        small = self.cloudseed_import([os.path.join(tenth, "artists.csv"), os.path.join(tenth, "artworks.csv")], name="cloudseed (1/10 rows)")
        m = self.alternate("memory 1/10", [small])
        big = self.results.get("CSV import", {}).get("cloudseed")
        sm = m["cloudseed (1/10 rows)"]
        r = ratio(big.rss_mb, sm.rss_mb) if big else math.nan
        rows_small = max(1, self.rows // 10)
        self.row(f"peak memory, CSV, {self.rows:,} rows vs {rows_small:,} rows", big, self.rows + self.artists,
                 f"cloudseed at {rows_small:,} rows: {sm.cell()}, peak {fmt_mb(sm.rss_mb)}", r, f"({fmt_mb(big.rss_mb) if big else '—'} / {fmt_mb(sm.rss_mb)})",
                 "≤ 1.5× (aim ≤ 1.1×)", None if r != r else r <= 1.5)

    def reimport(self):
        full = self.data["full"]
        files = [os.path.join(full, "artists.csv"), os.path.join(full, "artworks.csv")]
        store = os.path.join(self.work, "reimport.sqlite")
        counts = []

        def prepare(run):
            copy_store(self.cloudseed_store, store)
            return [self.cs("import", *files, "--store", store, "--json")]

        def after(run, runs):
            counts.append((counts_of(parse_summary(runs[-1].stdout), "Artwork"), counts_of(parse_summary(runs[-1].stdout), "Artist")))
        m = self.alternate("re-import", [("cloudseed", prepare, after)])
        cs = m["cloudseed"]
        first = self.results["CSV import"]["cloudseed"]
        r = ratio(cs.time, first.time)
        unchanged = all(c[0] and c[0].get("unchanged") == self.rows and c[0].get("created") == 0 and c[0].get("updated") == 0 for c in counts) if counts else False
        if counts:
            self.checks.append(("re-import says every record unchanged", unchanged, f"Artwork {counts[-1][0]}, Artist {counts[-1][1]}"))
        self.row("re-import of the same files into the filled store (all unchanged)", cs, self.rows + self.artists,
                 f"first import (cloudseed) {first.cell()}", r, "first import", "≤ 1.5× (aim ≤ 1.0×)", None if r != r else r <= 1.5)

    def change(self):
        full = self.data["full"]
        folder = os.path.join(self.work, "changes")
        os.makedirs(folder, exist_ok=True)
        change_file = os.path.join(folder, "artworks.csv")  # the file name gives the type: Artwork
        naming = artwork_naming(self.full_summary)
        reference = self.results["CSV import"]["cloudseed"]
        reference_label = "full import (cloudseed)"
        extra = []
        base_store = self.cloudseed_store
        # Names by title come out the same from a 1,000-row file; names by position do not, so a
        # store named by position is rebuilt once with the names pinned to the catalogue number.
        if naming is None or "{title}" not in naming:
            self.notes.append(f"The full CSV import named Artworks by {naming or 'an unknown rule'}: a 1,000-row change "
                              "file cannot reproduce those names, so the change workload pins "
                              "`--name-template 'Artwork={catalogNumber}'` for a full import (timed once) and for the changes.")
            write_change_file(os.path.join(full, "artworks.csv"), change_file, 1000)
            probe = os.path.join(self.work, "probe.sqlite")
            copy_store(self.cloudseed_store, probe)
            r = run_process(self.cs("import", change_file, "--store", probe, "--json"), self.args.timeout, capture_stdout=True)
            c = counts_of(parse_summary(r.stdout), "Artwork") if r.ok else None
            self.notes.append(f"Unpinned, the 1,000 changed rows into the position-named store gave: "
                              f"{c if c else 'failure: ' + r.why() + ' ' + r.stderr.strip()[-500:]} (naming {artwork_naming(parse_summary(r.stdout))!s}).")
            remove_store(probe)
            extra = ["--name-template", "Artwork={catalogNumber}"]
            base_store = os.path.join(self.work, "pinned.sqlite")
            pinned = self.cloudseed_import([os.path.join(full, "artists.csv"), os.path.join(full, "artworks.csv")],
                                           name="cloudseed pinned", keep_as=base_store, extra=extra)
            saved_runs = self.args.runs
            self.args.runs = 1
            reference = self.alternate("pinned full import", [pinned])["cloudseed pinned"]
            self.args.runs = saved_runs
            reference_label = "full import pinned by {catalogNumber}"
            if not reference.ok:
                self.row("1,000 changed rows into the full store", None, 1000, "pinned full import failed", math.nan, "", "≤ 10% (aim ≤ 2%)", None)
                return
        else:
            write_change_file(os.path.join(full, "artworks.csv"), change_file, 1000)
        store = os.path.join(self.work, "change.sqlite")
        counts = []

        def prepare(run):
            copy_store(base_store, store)
            return [self.cs("import", change_file, "--store", store, "--json", *extra)]

        def after(run, runs):
            counts.append(counts_of(parse_summary(runs[-1].stdout), "Artwork"))
        m = self.alternate("1,000 changed rows", [("cloudseed", prepare, after)])
        cs = m["cloudseed"]
        if counts:
            good = all(c and c.get("updated") == 1000 and c.get("created") == 0 for c in counts)
            self.checks.append(("the change file updates 1,000 Artworks and creates none", good, f"Artwork {counts[-1]}"))
        r = ratio(cs.time, reference.time)
        self.row("1,000 changed rows (price) into the full store", cs, 1000, f"{reference_label} {reference.cell()}",
                 r * 100 if r == r else r, "% of the full import", "≤ 10% (aim ≤ 2%)", None if r != r else r <= 0.10)
        # fmt_ratio prints "×": fix the cell to a percentage.
        last = self.rows_out[-1]
        last[5] = f"{r * 100:.1f}% of the full import" if r == r else "—"

    def export(self):
        total = self.rows + self.artists
        tools = []
        if self.tools["sqlite3"]:
            tools.append(("sqlite3 -json", lambda run: [[self.tools["sqlite3"], "-json", self.sqlite3_db, "select * from artworks"]], None))
        tools.append(("cloudseed", lambda run: [self.cs("export", "--format", "jsonl", "--store", self.cloudseed_store)], None))
        m = self.alternate("export JSON Lines", tools)
        cs, base = m["cloudseed"], m.get("sqlite3 -json")
        r = ratio(cs.time, base.time) if base else math.nan
        self.row("export of all records as CloudKit JSON Lines (> /dev/null)", cs, total,
                 self.peer_cell(m, [("sqlite3 -json", "sqlite3 -json (artworks)")]), r, "sqlite3 -json",
                 "≤ 2.0× sqlite3 -json (aim ≤ 1.0×)", None if r != r else r <= 2.0)
        # export sanity: one line per record
        lines = count_export_lines(self.cs("export", "--format", "jsonl", "--store", self.cloudseed_store), self.args.timeout)
        self.checks.append(("export --format jsonl prints one line per record", lines == total, f"{lines} lines, expected {total}"))

        help_run = run_process(self.cs("export", "--help"), 60, capture_stdout=True)
        has_csv = help_run.ok and re.search(r"\bcsv\b", help_run.stdout, re.I) is not None
        tools = []
        if self.tools["sqlite3"]:
            tools.append(("sqlite3 -csv", lambda run: [[self.tools["sqlite3"], "-csv", "-header", self.sqlite3_db, "select * from artworks"]], None))
        if has_csv:
            tools.append(("cloudseed", lambda run: [self.cs("export", "--format", "csv", "--type", "Artwork", "--store", self.cloudseed_store)], None))
        m = self.alternate("export CSV", tools)
        base = m.get("sqlite3 -csv")
        peers = self.peer_cell(m, [("sqlite3 -csv", "sqlite3 -csv")])
        if has_csv:
            cs = m["cloudseed"]
            lines = count_export_lines(self.cs("export", "--format", "csv", "--type", "Artwork", "--store", self.cloudseed_store), self.args.timeout)
            self.checks.append(("export --format csv --type Artwork prints a header and every Artwork",
                                lines is not None and lines >= self.rows + 1, f"{lines} lines (embedded newlines add some), at least {self.rows + 1} expected"))
            r = ratio(cs.time, base.time) if base else math.nan
            self.row("export as CSV (Artwork)", cs, self.rows, peers, r, "sqlite3 -csv", "≤ 1.5× sqlite3 -csv (aim ≤ 1.0×)", None if r != r else r <= 1.5)
        else:
            self.rows_out.append(["export as CSV", "n/a (not yet)", "—", "—", peers, "—", "≤ 1.5× sqlite3 -csv (aim ≤ 1.0×)", "—"])

    def plist_import(self, label, file):
        """cloudseed's import of one property list beside plistlib.load, its last store kept in plist_store(label)."""
        path = os.path.join(self.data["plist"], file)
        tools = [("plistlib.load", lambda run: [[sys.executable, "-c", "import plistlib,sys; plistlib.load(open(sys.argv[1], 'rb'))", path]], None),
                 self.cloudseed_import([path], extra=["--type", "Artwork"], keep_as=self.plist_store(label))]
        return self.alternate(f"{label} plist import", tools, count=self.args.plist_runs)

    def plist_store(self, label):
        return os.path.join(self.work, f"plist-{slug(label)}.sqlite")

    def plist(self):
        folder = self.data["plist"]
        for label, file in PLISTS:
            path = os.path.join(folder, file)
            m = self.plist_import(label, file)
            cs, py = m["cloudseed"], m["plistlib.load"]
            r = ratio(cs.time, py.time)
            self.row(f"{self.args.plist_rows:,}-row {label} plist import ({size_label(path)})", cs, self.args.plist_rows,
                     f"Python plistlib.load {py.cell()}, peak {fmt_mb(py.rss_mb)}", r, "plistlib", "≤ 1.0× plistlib (aim ≤ 0.3×)",
                     None if r != r else r <= 1.0)

    # -- correctness

    def verify(self):
        store = self.cloudseed_store
        full = self.data["full"]
        if not os.path.exists(store):
            self.checks.append(("cloudseed's CSV import store exists", False, "no store: the import failed"))
            return
        try:
            db = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
        except sqlite3.Error as error:
            self.checks.append(("open the store", False, str(error)))
            return

        def check(name, fn):
            try:
                ok, detail = fn()
            except Exception as error:  # a missing table or column is a failed check, not a crash
                ok, detail = False, f"{type(error).__name__}: {error}"
            self.checks.append((name, ok, detail))

        def one(sql, *params):
            return db.execute(sql, params).fetchone()[0]

        check("Artwork rows", lambda: (one("select count(*) from Artwork") == self.rows, f"{one('select count(*) from Artwork'):,} (expected {self.rows:,})"))
        check("Artist rows", lambda: (one("select count(*) from Artist") == self.artists, f"{one('select count(*) from Artist'):,} (expected {self.artists:,})"))

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

        check("sample rows equal their source", lambda: sample_against_source(db, os.path.join(full, "artworks.csv"), self.rows))

        if self.tools["sqlite3"] and os.path.exists(self.sqlite3_db):
            def peer():
                p = sqlite3.connect(f"file:{self.sqlite3_db}?mode=ro", uri=True)
                n = p.execute("select count(*) from artworks").fetchone()[0]
                p.close()
                return n == self.rows, f"{n:,} rows"
            check("peer: sqlite3 .import read every artwork (embedded newlines and quotes)", peer)
        db.close()


PLISTS = (("XML", "artworks.plist"), ("binary", "artworks.binary.plist"))


def runs_summary(runs):
    return ", ".join(f"{r.seconds:.2f} s / {r.rss_kib / 1024:.0f} MiB" for r in runs)


def describe_plan(summary):
    parts = []
    for t in summary.get("recordTypes", []):
        fields = ", ".join(f"{name} {f.get('type')}" + (f"→{f['target']}" if f.get("target") else "")
                           for name, f in sorted(t.get("fields", {}).items()))
        parts.append(f"{t.get('name')} named by {t.get('naming')} ({fields})")
    return "; ".join(parts)


def artwork_naming(summary):
    if not summary:
        return None
    for t in summary.get("recordTypes", []):
        if t.get("name") == "Artwork":
            return t.get("naming")
    return None


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


# --------------------------------------------------------------------------------------------
# The shape matrix (issue 34): the import in every shape a user brings, each beside sqlite3 .import


CSV_TARGET, CSV_AIM = 2.0, 1.0
JSON_TARGET, JSON_AIM = 2.5, 1.5
SPREAD_TARGET, SPREAD_AIM = 1.3, 1.1
REIMPORT_TARGET, REIMPORT_AIM = 1.0, 0.5
CHANGE_TARGET = 0.10
PLIST_TARGET = 1.0
POSTGRES_TARGET, POSTGRES_AIM = 2.5, 1.5
# The shapes that also go into PostgreSQL, beside psql \copy, when --postgres is given.
POSTGRES_SHAPES = ("recordName", "template", "natural key", "Type-N", "uuid")

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
    reads beside it, the naming rule the plan must print, and the store's setup when it is not empty."""

    def __init__(self, key, label, family, peer_folder, files=(), extra=(), naming="", seed=None, setup=None, keep=False):
        self.key, self.label, self.family, self.peer_folder = key, label, family, peer_folder
        self.files, self.extra, self.naming, self.seed = list(files), list(extra), naming, seed
        self.setup, self.keep = setup, keep
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


def store_counts(path):
    """Artist and Artwork rows of a cloudseed SQLite store, and the Artworks whose artist is no Artist."""
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        counts = {t: db.execute(f'select count(*) from "{t}"').fetchone()[0] for t in ("Artist", "Artwork")}
        dangling = db.execute("select count(*) from Artwork a where a.artist is null or not exists "
                              "(select 1 from Artist b where b.___recordID = a.artist and b.___zone = a.___zone)").fetchone()[0]
    finally:
        db.close()
    return counts, dangling


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

    def run(self):
        os.makedirs(self.folder, exist_ok=True)
        try:
            self.run_rows()
        finally:
            self.add_section()

    def run_rows(self):
        shapes = self.shapes()
        measures = self.measure(shapes)
        for shape in shapes:
            if shape.family == "CSV":
                self.shape_row(shape, measures)
        self.spread_row(shapes, measures)
        for shape in shapes:
            if shape.family != "CSV":
                self.shape_row(shape, measures)
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
        template, failure = self.production_template(schema)
        production = Shape("production", "CSV, `import --environment production` into a store holding only a promoted schema",
                           "CSV", full, gallery_files(full), ["--environment", "production"], "the natural key {title}",
                           setup=lambda store: copy_store(template, store))
        production.broken = failure
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
            Shape("JSON Lines", "JSON Lines with `recordName`, + artists.csv with `recordName`", "JSON", named,
                  gallery_files(named, "artworks.jsonl"), [], "the 'recordName' column"),
            Shape("JSON array", "one JSON array with `recordName`, + artists.csv with `recordName`", "JSON", named,
                  gallery_files(named, "artworks.json"), [], "the 'recordName' column"),
        ]

    def write_schema(self):
        path = os.path.join(self.folder, "gallery.ckdb")
        with open(path, "w", encoding="utf-8") as f:
            f.write(schema_text())
        return path

    def write_manifest(self, folder, schema):
        path = os.path.join(self.folder, "gallery.json")
        with open(path, "w", encoding="utf-8") as f:
            json.dump(manifest_for(folder, schema), f, indent=2)
        return path

    def production_template(self, schema):
        """A store holding only the gallery's schema, imported into development and promoted; and
        the failed run, if one failed."""
        b = self.bench
        path = os.path.join(self.folder, "production-template.sqlite")
        remove_store(path)
        for argv in (b.cs("schema", "import", schema, "--store", path), b.cs("schema", "promote", "--store", path)):
            r = run_process(argv, b.args.timeout, capture_stdout=True)
            if not r.ok:
                b.failures.append(("shape matrix: production schema", "cloudseed", r))
                remove_store(path)
                return path, r
        return path, None

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
        _, prepare, _ = self.bench.sqlite3_import(shape.peer_folder)

        def after(run, runs):
            if run == last:
                try:
                    shape.peer_rows = table_rows(os.path.join(self.bench.work, "peer-sqlite3.db"), "artworks")
                except sqlite3.Error:
                    shape.peer_rows = 0
        return (f"sqlite3 .import · {shape.key}", prepare, after)

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
        b = self.bench
        problems = []
        try:
            counts, dangling = store_counts(store)
        except sqlite3.Error as error:
            return False, f"cannot read the store: {error}"
        expected = {"Artist": b.artists, "Artwork": b.rows}
        if counts != expected:
            problems.append(f"expected {expected}")
        if dangling:
            problems.append(f"{dangling:,} Artworks whose artist is no Artist")
        naming = artwork_naming(shape.summary) or "an unknown rule"
        if shape.naming not in naming:
            problems.append(f"expected naming by {shape.naming}")
        made = [counts_of(shape.summary, t) for t in ("Artist", "Artwork")]
        if [c and c.get("created") for c in made] != [b.artists, b.rows]:
            problems.append(f"the summary says Artist {made[0]}, Artwork {made[1]}")
        if shape.peer_rows is not None and shape.peer_rows != b.rows:
            problems.append(f"sqlite3 .import read {shape.peer_rows:,} artworks")
        detail = (f"{counts['Artwork']:,} Artworks, {counts['Artist']:,} Artists, {dangling:,} dangling references; "
                  f"Artworks named by {naming}")
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
        twin = " of the CSV twin" if shape.family == "JSON" else ""
        peers = f"sqlite3 .import{twin} {peer.cell()}" if peer else "sqlite3: not installed"
        row = b.table_row(shape.label, cs, b.rows + b.artists, peers, r, "sqlite3", target_cell, None if r != r else r <= target)
        checked = shape.check is not None and shape.check[0]
        row[7] = holds_cell(None if r != r else r <= target, not cs.ok or not checked)
        self.rows.append(row)
        if shape.check:
            self.checks.append((shape.key, *shape.check))
        else:
            self.checks.append((shape.key, False, "not checked: the run failed (see Failures)" if cs.failure else "not checked"))

    def spread_row(self, shapes, measures):
        """The worst CSV shape's ratio over the best's: every shape must be about as fast."""
        scored = []
        for shape in shapes:
            cs = measures.get(shape.key)
            peer = measures.get(f"sqlite3 .import · {shape.key}")
            if shape.family != "CSV" or shape.broken or not cs.ok:
                continue
            scored.append((ratio(cs.time, peer.time) if peer else cs.time, shape.key))
        scored = [s for s in scored if s[0] == s[0]]
        target = f"≤ {SPREAD_TARGET:.1f}× (aim ≤ {SPREAD_AIM:.1f}×)"
        unit = "×" if self.bench.tools["sqlite3"] else " s"
        if len(scored) < 2:
            self.rows.append(["worst CSV shape ÷ best CSV shape", "—", "—", "—", "fewer than two CSV shapes ran", "—", target, "**FAIL**"])
            return
        worst, best = max(scored), min(scored)
        spread = worst[0] / best[0]
        missing = len(scored) < sum(1 for s in shapes if s.family == "CSV")
        self.rows.append(["worst CSV shape ÷ best CSV shape (their ratios to sqlite3)", "—", "—", "—",
                          f"worst: {worst[1]} {worst[0]:.2f}{unit}; best: {best[1]} {best[0]:.2f}{unit}",
                          f"{spread:.2f}×", target, holds_cell(spread <= SPREAD_TARGET, missing)])

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
            m = b.results.get(f"{label} plist import") or b.plist_import(label, file)
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
            stored = table_rows(self.bench.plist_store(label), "Artwork")
        except sqlite3.Error as error:
            return False, f"cannot read the store: {error}"
        return stored == rows, f"{stored:,} Artworks (expected {rows:,})"

    def postgres(self, shapes):
        """The CSV naming shapes into PostgreSQL, each beside psql \\copy of the same files."""
        b = self.bench
        pg = PostgresWorkload(b, b.args.postgres)
        if not pg.psql:
            self.notes.append("PostgreSQL rows skipped: psql is not installed (apt-get install postgresql-client)")
            return
        chosen = [s for s in shapes if s.key in POSTGRES_SHAPES]
        last = b.args.runs - 1
        checks = {}
        tools = []
        for shape in chosen:
            tools.append(pg.copy_peer(shape.peer_folder, name=f"psql \\copy · {shape.key}"))
            tools.append(pg.cloudseed_import(shape.files, name=f"{shape.key} into PostgreSQL", extra=shape.extra,
                                             after=self.postgres_check(pg, shape, last, checks)))
        measures = b.alternate("shape matrix: PostgreSQL", tools)
        pg.drop_databases()
        target_cell = f"≤ {POSTGRES_TARGET:.1f}× psql \\copy (aim ≤ {POSTGRES_AIM:.1f}×)"
        for shape in chosen:
            cs, copy = measures[f"{shape.key} into PostgreSQL"], measures[f"psql \\copy · {shape.key}"]
            r = ratio(cs.time, copy.time) if cs.ok and copy.ok else math.nan
            holds = None if r != r else r <= POSTGRES_TARGET
            row = b.table_row(f"PostgreSQL: {shape.label}", cs, b.rows + b.artists, f"psql \\copy (text columns) {copy.cell()}",
                              r, "psql \\copy", target_cell, holds)
            check = checks.get(shape.key) or (False, "not checked: the run failed (see Failures)")
            row[7] = holds_cell(holds, not cs.ok or not check[0])
            self.rows.append(row)
            self.checks.append((f"PostgreSQL: {shape.key}", *check))

    def postgres_check(self, pg, shape, last, checks):
        b = self.bench

        def after(run, runs):
            if run != last:
                return
            try:
                counts, dangling = pg.stored_counts()
            except RuntimeError as error:
                checks[shape.key] = (False, str(error))
                return
            naming = artwork_naming(parse_summary(runs[-1].stdout)) or "an unknown rule"
            ok = counts == {"Artist": b.artists, "Artwork": b.rows} and dangling == 0 and shape.naming in naming
            checks[shape.key] = (ok, f"{counts}, {dangling:,} Artworks whose artist is no Artist row; Artworks named by {naming}")
        return after

    def add_section(self):
        b = self.bench
        full = b.data["full"]
        intro = [
            f"{b.rows:,} Artworks + {b.artists:,} Artists ({size_label(os.path.join(full, 'artworks.csv'))} of CSV), "
            f"property lists {b.args.plist_rows:,} rows. Each row imports into a new, empty SQLite store unless it says otherwise, "
            "and its ratio is to the `sqlite3 .import` runs of the same CSVs that alternated with it in this run "
            f"({b.args.runs} run(s) each, medians). Targets are issue 34's \"must reach\" (its aim in brackets).",
        ]
        columns = ["shape", "cloudseed time", "rows/s", "peak RSS", "beside, in the same run", "ratio", "must reach", "holds?"]
        b.sections.append(("The shape matrix (issue 34)", intro, columns, self.rows, self.checks, self.notes))


# --------------------------------------------------------------------------------------------


def markdown_table(columns, rows):
    lines = ["| " + " | ".join(columns) + " |", "| " + " | ".join("---" for _ in columns) + " |"]
    for row in rows:
        lines.append("| " + " | ".join(str(c).replace("|", "\\|") for c in row) + " |")
    return lines


def check_lines(checks):
    return [f"- {'ok' if ok else '**FAIL**'} — {name}: {detail}" for name, ok, detail in checks]


def render(bench, header):
    out = [header, ""]
    if bench.rows_out:
        cols = ["work", "cloudseed time", "rows/s", "peak RSS", "peer time(s)", "ratio", "target (issue 7, must reach)", "holds?"]
        out += markdown_table(cols, bench.rows_out)
        out.append("")
        out.append("Times are medians of wall time; peak RSS is the process's maximum resident set size (MB = 10⁶ bytes); "
                   "rows/s counts Artworks + Artists; every import goes into a fresh store file.")
    if bench.checks:
        out += ["", "## Correctness of the cloudseed CSV import", ""]
        out += check_lines(bench.checks)
    for title, intro, columns, rows, checks, notes in bench.sections:
        out += ["", f"## {title}", ""] + intro + [""] + markdown_table(columns, rows)
        if checks:
            out += ["", "### Correctness: each row's store", ""] + check_lines(checks)
        if notes:
            out += [""] + [f"- {n}" for n in notes]
    if bench.notes:
        out += ["", "## Notes", ""]
        out += [f"- {n}" for n in bench.notes]
    if bench.failures:
        out += ["", "## Failures", ""]
        for workload, name, r in bench.failures:
            out.append(f"- {workload}, {name}: {r.why()}; command `{' '.join(r.argv)}`")
            tail = r.stderr.strip()[-2000:]
            if tail:
                out.append("")
                out.append("  ```")
                out += ["  " + line for line in tail.splitlines()]
                out.append("  ```")
    return "\n".join(out) + "\n"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, default=1_000_000, help="Artwork rows (Artists: rows/100); default 1000000")
    parser.add_argument("--runs", type=int, default=3, help="runs per tool and workload, alternating; the median is reported; default 3")
    parser.add_argument("--seed", type=int, default=7, help="the data's random seed; default 7")
    parser.add_argument("--plist-rows", type=int, default=100_000, help="rows of the property-list workloads; default 100000")
    parser.add_argument("--plist-runs", type=int, default=7,
                        help="runs per tool of the property-list workloads, alternating: a run takes about a second, "
                             "which the other tenants of a shared machine move by a quarter, so their medians take more runs; default 7")
    parser.add_argument("--timeout", type=float, default=600, help="seconds one run may take before it is killed and marked failed; default 600")
    parser.add_argument("--data", help="keep the generated data in DIR and reuse it when --rows/--seed/--plist-rows match")
    parser.add_argument("--work", help="folder for the stores (default: a temporary folder, removed at the end)")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder")
    parser.add_argument("--no-build", action="store_true", help="use the existing .build/release/cloudseed")
    parser.add_argument("--cloudseed", help="the cloudseed binary to measure (implies --no-build)")
    parser.add_argument("--build-timeout", type=float, default=3600, help="seconds the release build may take; default 3600")
    parser.add_argument("--only", help=f"comma-separated workloads among {','.join(WORKLOADS)} (csv runs with any but postgres and shapes: the others use its store)")
    parser.add_argument("--output", help="also write the report (Markdown) to this file")
    parser.add_argument("--postgres", default=os.environ.get("CLOUDSEED_BENCH_POSTGRES_URL"),
                        help="a PostgreSQL server URL whose user may create databases, for the postgres workload "
                             "(default: $CLOUDSEED_BENCH_POSTGRES_URL); the workload runs only with one")
    args = parser.parse_args(argv)
    if args.rows < 100 or args.runs < 1 or args.plist_runs < 1:
        parser.error("--rows must be at least 100, and --runs and --plist-runs at least 1")
    only = set(WORKLOADS)
    if args.only:
        only = {w.strip() for w in args.only.split(",") if w.strip()}
        unknown = only - set(WORKLOADS)
        if unknown:
            parser.error(f"unknown workload(s) {', '.join(sorted(unknown))}")
    if "postgres" in only and not args.postgres:
        if args.only:
            parser.error("the postgres workload needs --postgres URL (or CLOUDSEED_BENCH_POSTGRES_URL)")
        only.discard("postgres")

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

        steps = [("csv", bench.csv_import), ("csv", bench.verify), ("jsonl", bench.jsonl_import), ("json", bench.json_array),
                 ("memory", bench.memory_ratio), ("reimport", bench.reimport), ("change", bench.change),
                 ("export", bench.export), ("plist", bench.plist), ("shapes", lambda: ShapeMatrix(bench).run()),
                 ("postgres", lambda: PostgresWorkload(bench, args.postgres).run())]
        needs_store = {"reimport", "change", "export"}
        run_csv = "csv" in only or bool(only - INDEPENDENT)
        for name, step in steps:
            if name not in only and not (name == "csv" and run_csv):
                continue
            if name in needs_store and not os.path.exists(bench.cloudseed_store):
                bench.rows_out.append([f"{name}: skipped", "—", "—", "—", "—", "—", "—", "—"])
                bench.notes.append(f"{name} skipped: the cloudseed CSV import left no store")
                continue
            try:
                step()
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


if __name__ == "__main__":
    sys.exit(main())
