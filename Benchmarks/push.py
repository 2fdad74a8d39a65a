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
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse


def children_cpu():
    """CPU seconds (user and system) of the child processes waited for so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(arguments, folder):
    start = time.monotonic()
    result = subprocess.run(arguments, cwd=folder, capture_output=True, text=True)
    elapsed = time.monotonic() - start
    if result.returncode != 0:
        sys.exit(f"{' '.join(arguments)} failed: {result.stderr}")
    return elapsed, result.stdout


def pushed(binary, local, served, rows, folder):
    """Seconds `cloudseed push` takes to send the store `local` to a `cloudseed serve` of `served`,
    and the CPU seconds of both."""
    cpu = children_cpu()
    server = subprocess.Popen(
        [binary, "serve", "--port", "0", "--store", served, "--api-token", "bench"],
        cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        line = server.stdout.readline()
        endpoint = re.search(r"(http://[0-9.:]+)", line).group(1)
        seconds, summary = timed(
            [binary, "push", "--store", local, "--endpoint", endpoint, "--api-token", "bench",
             "--web-auth-token", "bench-user", "--quiet", "--json"], folder)
    finally:
        server.terminate()
        server.wait()
    cpu = children_cpu() - cpu
    if f'"sent":{rows}' not in summary:
        sys.exit(f"the push did not send every record: {summary}")
    check_holds(binary, served, rows, folder)
    return seconds, cpu


def with_other_types(binary, store, folder, count=20):
    """Makes `store` with `count` record types of one record each, none of them Item."""
    for index in range(count):
        path = os.path.join(folder, f"Other{index}.csv")
        with open(path, "w") as file:
            file.write(f"name,value\nother {index},{index}\n")
        timed([binary, "import", path, "--type", f"Other{index}", "--store", store, "--quiet"], folder)
    return store


def pushed_to_postgres(binary, url, rows, folder):
    """Seconds the push takes to a `cloudseed serve` kept in a new database of the server at `url`,
    and the CPU seconds of both (not of the PostgreSQL server)."""
    name = f"cloudseed_push_{os.getpid()}_{time.monotonic_ns()}"
    subprocess.run(["psql", "-X", "-q", url, "-c", f"CREATE DATABASE {name}"], check=True, capture_output=True)
    try:
        return pushed(binary, "local.sqlite", urllib.parse.urlparse(url)._replace(path="/" + name).geturl(), rows,
                      folder)
    finally:
        subprocess.run(["psql", "-X", "-q", url, "-c", f"DROP DATABASE {name} WITH (FORCE)"], capture_output=True)


def sqlite_floor(rows, folder):
    """Seconds and CPU seconds the `sqlite3` shell takes to write the push's rows alone, each in a
    new file, a transaction per request of 200 records, the values made by SQL itself: the served
    records, and the journal's row of their entries."""
    def tables(store, names):
        return subprocess.run(["sqlite3", store] + [f".schema {name}" for name in names], cwd=folder,
                              capture_output=True, text=True, check=True).stdout

    def written(name, schema, insert):
        batches = "".join(
            f"BEGIN; WITH RECURSIVE n(i) AS (SELECT {first} UNION ALL SELECT i + 1 FROM n WHERE i < {first + 199}) "
            f"{insert}; COMMIT;\n" for first in range(0, rows, 200))
        script = os.path.join(folder, f"{name}.sql")
        with open(script, "w") as file:
            file.write("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;\n" + schema + batches)
        start, cpu = time.monotonic(), children_cpu()
        with open(script) as file:
            subprocess.run(["sqlite3", f"{name}.sqlite"], stdin=file, cwd=folder, check=True, capture_output=True)
        return time.monotonic() - start, children_cpu() - cpu

    served = written("floor-served", tables("served.sqlite", ["_cloudseed_zones", "Item"]),
                     "INSERT INTO \"Item\" SELECT 1, 'Item ' || i, '2026-11-28T21:00:00.000Z', '__defaultOwner__', "
                     "'2026-11-28T21:00:00.000Z', '__defaultOwner__', printf('%x', i), i % 2, "
                     "'note number ' || i || ' for the push figure', i % 5, 'Item ' || i FROM n WHERE true "
                     "ON CONFLICT (\"___recordID\", \"___zone\") DO UPDATE SET \"done\" = excluded.\"done\", "
                     "\"note\" = excluded.\"note\", \"priority\" = excluded.\"priority\", \"title\" = excluded.\"title\"")
    # As the push notes them: a row per request, a JSON object of its records' entries.
    journal = written("floor-journal", tables("local.sqlite", ["_cloudseed_journal"]),
                      "INSERT INTO _cloudseed_journal SELECT 'push http://127.0.0.1:8787/database/1/"
                      "iCloud.com.example.cloudseed/development/public', char(30) || min(i), json_group_object("
                      "'_defaultZone' || char(31) || '__defaultOwner__' || char(31) || 'Item ' || i, "
                      "printf('%x %x', i, i)) FROM n")
    return served, journal


def one_run(binary, rows, folder, postgres):
    items = os.path.join(folder, "items.csv")
    with open(items, "w", newline="") as file:
        writer = csv.writer(file)
        writer.writerow(["title", "priority", "done", "note"])
        for index in range(rows):
            writer.writerow([f"Item {index}", index % 5, index % 2, f"note number {index} for the push figure"])
    cpu = children_cpu()
    import_seconds, _ = timed(
        [binary, "import", items, "--type", "Item", "--store", "local.sqlite", "--quiet"], folder)
    times = {
        "import": (import_seconds, children_cpu() - cpu),
        "push": pushed(binary, "local.sqlite", "served.sqlite", rows, folder),
        "types": pushed(binary, "local.sqlite", with_other_types(binary, "typed.sqlite", folder), rows, folder),
    }
    times["alone"], times["curl"] = serve_alone(binary, rows, folder)
    if postgres:
        times["postgres"] = pushed_to_postgres(binary, postgres, rows, folder)
    times["floor served"], times["floor journal"] = sqlite_floor(rows, folder)
    return times


def check_holds(binary, store, rows, folder):
    _, export = timed([binary, "export", "--store", store, "--type", "Item", "--format", "jsonl"], folder)
    if export.count("\n") != rows:
        sys.exit(f"{store} holds {export.count(chr(10))} records, not {rows}")


def serve_alone(binary, rows, folder):
    """Seconds `curl` takes to send the push's requests to a new `cloudseed serve`, eight at a time,
    with the CPU seconds of both, and of curl alone."""
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
    cpu = children_cpu()
    server = subprocess.Popen(
        [binary, "serve", "--port", "0", "--store", "alone.sqlite", "--api-token", "bench"],
        cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        endpoint = re.search(r"(http://[0-9.:]+)", server.stdout.readline()).group(1)
        url = endpoint + "/database/1/iCloud.com.example.cloudseed/development/public/records/modify?ckAPIToken=bench&ckWebAuthToken=bench-user"
        with open(os.path.join(folder, "curl.config"), "w") as file:
            for index, body in enumerate(config):
                if index > 0:
                    file.write("next\n")
                file.write(f'url = "{url}"\ndata-binary = "@{body}"\noutput = "/dev/null"\nfail\n')
        curl_cpu = children_cpu()
        seconds, _ = timed(["curl", "--silent", "--show-error", "--parallel", "--parallel-max", "8",
                            "--config", "curl.config"], folder)
        curl_cpu = children_cpu() - curl_cpu
    finally:
        server.terminate()
        server.wait()
    cpu = children_cpu() - cpu
    check_holds(binary, "alone.sqlite", rows, folder)
    return (seconds, cpu), (seconds, curl_cpu)


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

    def median(key, part=0):
        return statistics.median(run[key][part] for run in runs)

    def ratio(key, part=0):
        return statistics.median(run[key][part] / run["import"][part] for run in runs)

    rows = [
        ("import", "`cloudseed import`"),
        ("push", "`cloudseed push` to `cloudseed serve` over loopback"),
        ("alone", "the same requests from `curl`, eight at a time: `serve` alone"),
        ("curl", "of which `curl` alone"),
        ("types", "push to a served store of 20 other record types"),
        ("postgres", "push to a `serve` kept in PostgreSQL (not counting PostgreSQL's CPU)"),
        ("floor served", "floor: `sqlite3` alone writing the served rows, 200 a transaction"),
        ("floor journal", "floor: `sqlite3` alone writing the journal's rows, one a transaction"),
    ]
    print(f"| {options.rows:,} records, median of {options.runs} | seconds | CPU seconds | CPU / import's |")
    print("| --- | --- | --- | --- |")
    for key, label in rows:
        if key in runs[0]:
            seconds = "" if key == "curl" else f"{median(key):.2f}"
            print(f"| {label} | {seconds} | {median(key, 1):.2f} | {ratio(key, 1):.1f}x |")
    print(f"| push / import (median of the runs' ratios) | {ratio('push'):.1f}x | | |")


if __name__ == "__main__":
    main()
