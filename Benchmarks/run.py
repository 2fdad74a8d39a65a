#!/usr/bin/env python3
"""cloudseed's benchmark (issue 7): cloudseed side by side with sqlite3 and sqlite-utils.

    python3 Benchmarks/run.py --rows 1000000          # the issue's size, 3 runs each, median
    python3 Benchmarks/run.py --rows 100000 --runs 1  # a quick look
    python3 Benchmarks/run.py --only postgres --postgres postgres://USER@HOST/DB  # issue 9: beside psql \\copy
    python3 Benchmarks/run.py --only shapes           # issue 34: the shape matrix alone

It builds cloudseed in release (through the shared build lock), generates N Artworks and N/100
Artists with Benchmarks/generate.py, runs every workload with the peers and cloudseed alternating,
each run a fresh process importing into a fresh store file, and prints a Markdown table: the median
wall time, rows/s and peak RSS (`/usr/bin/time -f %M`), the peers' times, the ratio to
the stated peer, issue 7's target and whether it holds. It then checks the cloudseed CSV import:
row counts, every reference resolved, a sample of typed values against the source.

The workloads live beside it, and each part runs alone with the same flags: imports.py (csv, jsonl,
json, memory, reimport, change, plist), exports.py (export), shapes.py (the shape matrix of issue
34, a second table), postgres.py (postgres), data.py (the data sets). measure.py runs and measures
one process, bench.py runs the chosen workloads into one Bench, report.py prints it.

Nothing is installed: without sqlite-utils (`pip install sqlite-utils`) or the sqlite3 shell
(`apt-get install sqlite3`) their columns say "not installed". See Benchmarks/README.md.
"""

import sys

import exports
import imports
import postgres
import shapes
from bench import run_workloads
from measure import WORKLOADS, arguments, parse

# Every workload's steps, in the report's order (WORKLOADS'); the sort keeps a workload's own order.
STEPS = sorted(imports.STEPS + exports.STEPS + shapes.STEPS + postgres.STEPS, key=lambda step: WORKLOADS.index(step[0]))


def main(argv=None):
    parser = arguments(__doc__, WORKLOADS, postgres=True)
    args, only = parse(parser, argv, WORKLOADS)
    return run_workloads(args, only, STEPS)


if __name__ == "__main__":
    sys.exit(main())
