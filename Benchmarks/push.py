#!/usr/bin/env python3
"""Issue 38's figure: `cloudseed push` of N records to `cloudseed serve` over loopback, beside
`cloudseed import` of the same records, in the same run.

    python3 Benchmarks/push.py                      # 100,000 records, 3 runs, medians
    python3 Benchmarks/push.py --rows 10000 --runs 1

Each run generates a CSV of `--rows` items (title, priority, done, note), imports it into a new
store (timed: the import), starts `cloudseed serve --api-token` on a free port over another new
store, and pushes the first store to it (timed: the push). It checks that the served store then
holds every record. Then, to tell the server's share from the client's, it sends the same
records/modify requests (200 records each, as push writes them) to a `cloudseed serve` of a third
new store with `curl`, eight at a time as push sends them (timed: serve alone). Two more shapes
are pushed: to a served store that already holds 20 other record types, and with `--postgres URL`
(a server where the user may create databases), to a `cloudseed serve` kept in a new PostgreSQL
database. It prints a Markdown table: the medians and the push/import ratio.

It installs nothing and builds nothing: `--binary` names the cloudseed to run (build it in release
first: `flock /tmp/cloudseed-build.lock swift build -c release --product cloudseed`).
"""

import argparse
import csv
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse


def timed(arguments, folder):
    start = time.monotonic()
    result = subprocess.run(arguments, cwd=folder, capture_output=True, text=True)
    elapsed = time.monotonic() - start
    if result.returncode != 0:
        sys.exit(f"{' '.join(arguments)} failed: {result.stderr}")
    return elapsed, result.stdout


def pushed(binary, local, served, rows, folder):
    """Seconds `cloudseed push` takes to send the store `local` to a `cloudseed serve` of `served`."""
    server = subprocess.Popen(
        [binary, "serve", "--port", "0", "--store", served, "--api-token", "bench"],
        cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        line = server.stdout.readline()
        endpoint = re.search(r"(http://[0-9.:]+)", line).group(1)
        seconds, summary = timed(
            [binary, "push", "--store", local, "--endpoint", endpoint, "--api-token", "bench",
             "--quiet", "--json"], folder)
    finally:
        server.terminate()
        server.wait()
    if f'"sent":{rows}' not in summary:
        sys.exit(f"the push did not send every record: {summary}")
    check_holds(binary, served, rows, folder)
    return seconds


def with_other_types(binary, store, folder, count=20):
    """Makes `store` with `count` record types of one record each, none of them Item."""
    for index in range(count):
        path = os.path.join(folder, f"Other{index}.csv")
        with open(path, "w") as file:
            file.write(f"name,value\nother {index},{index}\n")
        timed([binary, "import", path, "--type", f"Other{index}", "--store", store, "--quiet"], folder)
    return store


def pushed_to_postgres(binary, url, rows, folder):
    """Seconds the push takes to a `cloudseed serve` kept in a new database of the server at `url`."""
    name = f"cloudseed_push_{os.getpid()}_{time.monotonic_ns()}"
    subprocess.run(["psql", "-X", "-q", url, "-c", f"CREATE DATABASE {name}"], check=True, capture_output=True)
    try:
        return pushed(binary, "local.sqlite", urllib.parse.urlparse(url)._replace(path="/" + name).geturl(), rows,
                      folder)
    finally:
        subprocess.run(["psql", "-X", "-q", url, "-c", f"DROP DATABASE {name} WITH (FORCE)"], capture_output=True)


def one_run(binary, rows, folder, postgres):
    items = os.path.join(folder, "items.csv")
    with open(items, "w", newline="") as file:
        writer = csv.writer(file)
        writer.writerow(["title", "priority", "done", "note"])
        for index in range(rows):
            writer.writerow([f"Item {index}", index % 5, index % 2, f"note number {index} for the push figure"])
    import_seconds, _ = timed(
        [binary, "import", items, "--type", "Item", "--store", "local.sqlite", "--quiet"], folder)
    times = {
        "import": import_seconds,
        "push": pushed(binary, "local.sqlite", "served.sqlite", rows, folder),
        "alone": serve_alone(binary, rows, folder),
        "types": pushed(binary, "local.sqlite", with_other_types(binary, "typed.sqlite", folder), rows, folder),
    }
    if postgres:
        times["postgres"] = pushed_to_postgres(binary, postgres, rows, folder)
    return times


def check_holds(binary, store, rows, folder):
    _, export = timed([binary, "export", "--store", store, "--type", "Item", "--format", "jsonl"], folder)
    if export.count("\n") != rows:
        sys.exit(f"{store} holds {export.count(chr(10))} records, not {rows}")


def serve_alone(binary, rows, folder):
    """Seconds `curl` takes to send the push's requests to a new `cloudseed serve`, eight at a time."""
    config = []
    for first in range(0, rows, 200):
        operations = ",".join(
            '{"operationType":"forceUpdate","record":{"recordName":"Item %d","recordType":"Item","fields":'
            '{"done":{"value":%d,"type":"INT64"},"note":{"value":"note number %d for the push figure",'
            '"type":"STRING"},"priority":{"value":%d,"type":"INT64"},"title":{"value":"Item %d","type":"STRING"}}}}'
            % (index, index % 2, index, index % 5, index) for index in range(first, min(first + 200, rows)))
        body = os.path.join(folder, f"request-{first}.json")
        with open(body, "w") as file:
            file.write('{"zoneID":{"zoneName":"_defaultZone"},"atomic":false,"desiredKeys":[],"operations":['
                       + operations + "]}")
        config.append(body)
    server = subprocess.Popen(
        [binary, "serve", "--port", "0", "--store", "alone.sqlite", "--api-token", "bench"],
        cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        endpoint = re.search(r"(http://[0-9.:]+)", server.stdout.readline()).group(1)
        url = endpoint + "/database/1/iCloud.com.example.cloudseed/development/public/records/modify?ckAPIToken=bench"
        with open(os.path.join(folder, "curl.config"), "w") as file:
            for index, body in enumerate(config):
                if index > 0:
                    file.write("next\n")
                file.write(f'url = "{url}"\ndata-binary = "@{body}"\noutput = "/dev/null"\nfail\n')
        seconds, _ = timed(["curl", "--silent", "--show-error", "--parallel", "--parallel-max", "8",
                            "--config", "curl.config"], folder)
    finally:
        server.terminate()
        server.wait()
    check_holds(binary, "alone.sqlite", rows, folder)
    return seconds


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--binary", default=".build/release/cloudseed")
    parser.add_argument("--postgres", help="a PostgreSQL server's URL, to push to a serve kept there too")
    options = parser.parse_args()
    binary = os.path.abspath(options.binary)
    runs = []
    for _ in range(options.runs):
        with tempfile.TemporaryDirectory(prefix="cloudseed-push-") as folder:
            runs.append(one_run(binary, options.rows, folder, options.postgres))

    def median(key):
        return statistics.median(run[key] for run in runs)

    print(f"| {options.rows:,} records, median of {options.runs} | seconds |")
    print("| --- | --- |")
    print(f"| `cloudseed import` | {median('import'):.2f} |")
    print(f"| `cloudseed push` to `cloudseed serve` over loopback | {median('push'):.2f} |")
    print(f"| the same requests from `curl`, eight at a time: `serve` alone | {median('alone'):.2f} |")
    print(f"| push to a served store of 20 other record types | {median('types'):.2f} |")
    if options.postgres:
        print(f"| push to a `serve` kept in PostgreSQL | {median('postgres'):.2f} |")
    ratios = [run["push"] / run["import"] for run in runs]
    print(f"| push / import (median of the runs' ratios) | {statistics.median(ratios):.1f}x |")


if __name__ == "__main__":
    main()
