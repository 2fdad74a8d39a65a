"""Running and measuring for cloudseed's benchmark: one process's wall time and peak RSS (`Run`,
`run_process`), a tool's runs and their medians (`Measure`), the cells they print (`fmt_*`), the
tools found, the release build, the machine's header, and the flags every part takes (`arguments`,
`parse`)."""

import argparse
import math
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time

BENCH_DIR = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(BENCH_DIR)
BUILD_LOCK = "/tmp/cloudseed-build.lock"
# Every workload, in the report's order.
WORKLOADS = ["csv", "jsonl", "json", "memory", "reimport", "change", "export", "plist", "shapes", "postgres"]


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


def runs_summary(runs):
    return ", ".join(f"{r.seconds:.2f} s / {r.rss_kib / 1024:.0f} MiB" for r in runs)


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
        f"- command: `python3 Benchmarks/{os.path.basename(sys.argv[0])} {' '.join(sys.argv[1:])}`",
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
# The flags: one set for every part, each taking the ones it needs


def arguments(description, workloads=(), measuring=True, postgres=False):
    """The parser of a part that runs `workloads`: --only when there are several of them; the runs',
    the binary's and the report's flags when it measures (data.py only generates); --postgres when
    asked."""
    parser = argparse.ArgumentParser(description=description, formatter_class=argparse.RawDescriptionHelpFormatter)
    add = parser.add_argument
    add("--rows", type=int, default=1_000_000, help="Artwork rows (Artists: rows/100); default 1000000")
    if measuring:
        add("--runs", type=int, default=3, help="runs per tool and workload, alternating; the median is reported; default 3")
    add("--seed", type=int, default=7, help="the data's random seed; default 7")
    add("--plist-rows", type=int, default=100_000, help="rows of the property-list workloads; default 100000")
    if measuring:
        add("--plist-runs", type=int, default=7,
            help="runs per tool of the property-list workloads, alternating: a run takes about a second, "
                 "which the other tenants of a shared machine move by a quarter, so their medians take more runs; default 7")
        add("--timeout", type=float, default=600, help="seconds one run may take before it is killed and marked failed; default 600")
    add("--data", help="keep the generated data in DIR and reuse it when --rows/--seed/--plist-rows match")
    if measuring:
        add("--work", help="folder for the stores (default: a temporary folder, removed at the end)")
        add("--keep", action="store_true", help="keep the temporary folder")
        add("--no-build", action="store_true", help="use the existing .build/release/cloudseed")
        add("--cloudseed", help="the cloudseed binary to measure (implies --no-build)")
        add("--build-timeout", type=float, default=3600, help="seconds the release build may take; default 3600")
    if len(workloads) > 1:
        add("--only", help=f"comma-separated workloads among {','.join(workloads)} "
            + ("(csv runs with any but postgres and shapes: the others use its store)" if measuring
               else "(default: all): generate the data sets they read"))
    if measuring:
        add("--output", help="also write the report (Markdown) to this file")
    if postgres:
        add("--postgres", default=os.environ.get("CLOUDSEED_BENCH_POSTGRES_URL"),
            help="a PostgreSQL server URL whose user may create databases, for the postgres workload "
                 "(default: $CLOUDSEED_BENCH_POSTGRES_URL); the workload runs only with one")
    return parser


def parse(parser, argv=None, workloads=()):
    """The flags, checked, and the chosen workloads: all of `workloads` unless --only names some.
    Without a PostgreSQL URL the postgres workload is left out, or refused when asked for."""
    args = parser.parse_args(argv)
    if args.rows < 100 or getattr(args, "runs", 1) < 1 or getattr(args, "plist_runs", 1) < 1:
        parser.error("--rows must be at least 100, and --runs and --plist-runs at least 1")
    only = set(workloads)
    named = getattr(args, "only", None)
    if named:
        only = {w.strip() for w in named.split(",") if w.strip()}
        unknown = only - set(workloads)
        if unknown:
            parser.error(f"unknown workload(s) {', '.join(sorted(unknown))}")
    if "postgres" in only and hasattr(args, "postgres") and not args.postgres:
        if named or only == {"postgres"}:
            parser.error("the postgres workload needs --postgres URL (or CLOUDSEED_BENCH_POSTGRES_URL)")
        only.discard("postgres")
    return args, only
