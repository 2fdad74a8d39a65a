#!/usr/bin/env python3
"""Issue 37's load check: many clients of `cloudseed serve` at once, while an import writes to the
same store.

    python3 Benchmarks/serve_load.py                          # 200 clients, 25 requests each
    python3 Benchmarks/serve_load.py --clients 50 --requests 10 --import-rows 20000

It seeds the gallery into a new store, starts `cloudseed serve` on a free port, starts
`cloudseed import` of a generated CSV into the same store, and has `--clients` threads each send
`--requests` requests in turn: records/query (Artwork, price > 1000, sorted by title) and
records/lookup (one artwork). Every answer is checked against what `cloudseed query` printed before
the load, so a lost, failed or wrong answer is counted. It then runs the same query through the
`sqlite3` shell as many times, for comparison, and prints a Markdown summary: requests/s, median and
p99 latency, errors, the import's time and outcome.

It installs nothing and builds nothing: `--binary` names the cloudseed to run (build it first, in
release for figures worth quoting: `flock /tmp/cloudseed-build.lock swift build -c release --product
cloudseed`). Exit code 1 when any answer was wrong or the import failed.
"""

import argparse
import http.client
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time

CONTAINER = "iCloud.com.example.Gallery"
QUERY = {
    "query": {
        "recordType": "Artwork",
        "filterBy": [{"comparator": "GREATER_THAN", "fieldName": "price", "fieldValue": {"value": 1000}}],
        "sortBy": [{"fieldName": "title"}],
    }
}
LOOKUP_NAME = "115 Mei Chen"
SQL = "SELECT ___recordID FROM Artwork WHERE price > 1000 ORDER BY title;"


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default=os.path.join(root, ".build/release/cloudseed"))
    parser.add_argument("--clients", type=int, default=200)
    parser.add_argument("--requests", type=int, default=25, help="requests per client")
    parser.add_argument("--import-rows", type=int, default=200_000, help="rows of the concurrent import")
    args = parser.parse_args()
    if not os.access(args.binary, os.X_OK):
        sys.exit(f"error: no cloudseed at {args.binary}; build it or name it with --binary")

    work = tempfile.mkdtemp(prefix="cloudseed-serve-load-")
    server = None
    try:
        store = os.path.join(work, "cloudseed.sqlite")
        run([args.binary, "seed", os.path.join(root, "SampleData/gallery.json"), "--store", store])
        expected = [
            json.loads(line)["recordName"]
            for line in run(
                [args.binary, "query", "Artwork", "--filter", "price > 1000", "--sort", "title", "--format", "jsonl",
                 "--container", CONTAINER, "--store", store]).splitlines()
        ]
        items = os.path.join(work, "items.csv")
        with open(items, "w") as f:
            f.write("title,count\n")
            for n in range(args.import_rows):
                f.write(f"Item number {n},{n}\n")

        server = subprocess.Popen(
            [args.binary, "serve", "--store", store, "--port", "0"], stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, text=True)
        port = None
        for line in server.stdout:
            match = re.search(r"http://127\.0\.0\.1:(\d+)", line)
            if match:
                port = int(match.group(1))
                break
        if port is None:
            sys.exit("error: cloudseed serve did not start")

        importing = subprocess.Popen(
            [args.binary, "import", items, "--type", "Item", "--container", CONTAINER, "--store", store],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        import_started = time.monotonic()
        latencies, failures = load(port, args.clients, args.requests, expected)
        load_seconds = latencies.pop()
        import_stderr = importing.communicate()[1]
        import_seconds = time.monotonic() - import_started
        sqlite_seconds = sqlite3_queries(store, args.clients * args.requests)

        total = args.clients * args.requests
        print(f"## cloudseed serve: {args.clients} clients at once, {args.requests} requests each\n")
        print("| measure | value |")
        print("| --- | --- |")
        print(f"| requests answered correctly | {total - len(failures)} of {total} |")
        print(f"| requests/s (query and lookup alternating) | {total / load_seconds:,.0f} |")
        print(f"| median latency | {statistics.median(latencies) * 1000:.1f} ms |")
        print(f"| p99 latency | {percentile(latencies, 0.99) * 1000:.1f} ms |")
        print(f"| concurrent import of {args.import_rows:,} rows | "
              f"{'ok' if importing.returncode == 0 else 'FAILED'} in {import_seconds:.2f} s |")
        if sqlite_seconds is not None:
            print(f"| the same query through `sqlite3`, {total} times in one process | "
                  f"{total / sqlite_seconds:,.0f} queries/s |")
        for failure in failures[:10]:
            print(f"\nfailure: {failure}")
        if importing.returncode != 0:
            print(f"\nimport failed: {import_stderr.strip()}")
        return 1 if failures or importing.returncode != 0 else 0
    finally:
        if server is not None:
            server.terminate()
            server.wait()
        shutil.rmtree(work, ignore_errors=True)


def run(argv):
    result = subprocess.run(argv, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"error: {' '.join(argv)} failed: {result.stderr.strip()}")
    return result.stdout


def load(port, clients, requests, expected):
    """Sends the requests from `clients` threads at once; returns each latency (the wall time of the
    whole load appended last) and a description of each wrong answer."""
    database = f"/database/1/{CONTAINER}/development/public"
    query = json.dumps(QUERY)
    lookup = json.dumps({"records": [{"recordName": LOOKUP_NAME}]})
    latencies, failures = [], []
    lock = threading.Lock()
    start = threading.Barrier(clients + 1)

    def client(number):
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
        start.wait()
        for n in range(requests):
            is_query = (number + n) % 2 == 0
            began = time.monotonic()
            try:
                connection.request(
                    "POST", database + ("/records/query" if is_query else "/records/lookup"),
                    query if is_query else lookup, {"Content-Type": "application/json"})
                response = connection.getresponse()
                body = response.read()
                names = [record.get("recordName") for record in json.loads(body)["records"]]
                wanted = expected if is_query else [LOOKUP_NAME]
                problem = None if response.status == 200 and names == wanted else f"{response.status} {body[:200]!r}"
            except Exception as error:  # a lost answer counts as a failure, with its reason
                problem = repr(error)
                connection.close()
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
            elapsed = time.monotonic() - began
            with lock:
                latencies.append(elapsed)
                if problem:
                    failures.append(problem)
        connection.close()

    threads = [threading.Thread(target=client, args=(n,)) for n in range(clients)]
    for thread in threads:
        thread.start()
    start.wait()
    began = time.monotonic()
    for thread in threads:
        thread.join()
    latencies.append(time.monotonic() - began)
    return latencies, failures


def sqlite3_queries(store, count):
    """Seconds the `sqlite3` shell takes to run the query `count` times in one process, or None
    without the shell."""
    if shutil.which("sqlite3") is None:
        return None
    script = SQL * count
    began = time.monotonic()
    subprocess.run(["sqlite3", store], input=script, capture_output=True, text=True, check=True)
    return time.monotonic() - began


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * fraction))]


if __name__ == "__main__":
    sys.exit(main())
