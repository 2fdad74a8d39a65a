"""The PostgreSQL workload of cloudseed's benchmark (issue 9): the CSV import into a PostgreSQL store,
beside `psql \\copy` of the same files into text columns (PostgreSQL's own floor: no typing at all),
each run into a fresh database on the server that `--postgres URL` names. Alone:

    python3 Benchmarks/postgres.py --rows 1000000 --postgres postgres://USER@HOST/DB
"""

import csv
import os
import shutil
import subprocess
import sys
import time
import urllib.parse

from bench import run_workloads
from measure import arguments, parse


def database_url(url, name):
    """The server URL with its database replaced by `name`."""
    parts = urllib.parse.urlsplit(url)
    return urllib.parse.urlunsplit((parts.scheme, parts.netloc, "/" + name, parts.query, parts.fragment))


def redacted(url):
    parts = urllib.parse.urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.replace(":" + parts.password + "@", ":***@", 1)
    return urllib.parse.urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment))


# The databases the workload makes: psql's and cloudseed's.
DATABASES = ("cloudseed_bench_copy", "cloudseed_bench_import")
# The PostgreSQL schema of cloudseed's default container's development environment.
SCHEMA = "icloud_com_example_cloudseed_development"


class PostgresWorkload:
    def __init__(self, bench, url):
        self.bench, self.url = bench, url
        self.psql = shutil.which("psql")

    def sql(self, statement, database=None):
        url = database_url(self.url, database) if database else self.url
        done = subprocess.run([self.psql, "-X", "-q", "-At", url, "-c", statement], capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError(f"psql {redacted(url)} -c {statement!r} failed: {done.stderr.strip()}")
        return done.stdout.strip()

    def fresh_database(self, name):
        """An empty database `name`, the other workload database dropped and the server quiet: a
        million rows loaded draw autovacuum's VACUUM and ANALYZE (0.5-1 s of CPU) about a minute
        later, which would otherwise fall inside whichever run is timed then. A checkpoint then
        writes out what the runs before left in memory: each load writes some 300 MB of WAL, and
        the checkpoint that much WAL draws fell inside whichever run came third or so."""
        for database in DATABASES:
            self.sql(f"DROP DATABASE IF EXISTS {database} WITH (FORCE)")
        self.wait_for_autovacuum()
        self.sql(f"CREATE DATABASE {name}")
        self.checkpoint()
        return database_url(self.url, name)

    def checkpoint(self):
        """A checkpoint, where the user may ask for one (a superuser, or pg_checkpoint's member)."""
        try:
            self.sql("CHECKPOINT")
        except RuntimeError:
            pass

    def wait_for_autovacuum(self, timeout=120):
        """Waits until no autovacuum worker is busy on the server (at most `timeout` seconds)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.sql("SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'autovacuum worker'") == "0":
                return
            time.sleep(0.5)

    def header(self, path):
        """A CSV file's column names: psql's tables take them all as text, as sqlite3 .import does."""
        with open(path, encoding="utf-8") as f:
            return next(csv.reader(f))

    def copy_peer(self, folder, name="psql \\copy"):
        files = [("artists", os.path.join(folder, "artists.csv")), ("artworks", os.path.join(folder, "artworks.csv"))]

        def prepare(run):
            url = self.fresh_database("cloudseed_bench_copy")
            for table, path in files:
                columns = ", ".join('"' + name.replace('"', '""') + '" text' for name in self.header(path))
                self.sql(f"CREATE TABLE {table} ({columns})", "cloudseed_bench_copy")
            return [[self.psql, "-X", "-q", url]
                    + [arg for table, path in files for arg in ("-c", f"\\copy {table} FROM '{path}' WITH (FORMAT csv, HEADER)")]]
        return (name, prepare, None)

    def cloudseed_import(self, files, name="cloudseed", extra=(), after=None):
        def prepare(run):
            url = self.fresh_database("cloudseed_bench_import")
            return [self.bench.cs("import", *files, "--store", url, "--json", "--quiet", *extra)]
        return (name, prepare, after)

    def stored_counts(self):
        """The Artist and Artwork rows of cloudseed's database, and the Artworks whose artist is no Artist row."""
        counts = {t: int(self.sql(f'SELECT count(*) FROM {SCHEMA}."{t}"', "cloudseed_bench_import")) for t in ("Artist", "Artwork")}
        dangling = int(self.sql(
            f'SELECT count(*) FROM {SCHEMA}."Artwork" a LEFT JOIN {SCHEMA}."Artist" b '
            'ON b."___recordID" = a.artist AND b."___zone" = a."___zone" WHERE b."___recordID" IS NULL', "cloudseed_bench_import"))
        return counts, dangling

    def drop_databases(self):
        for name in DATABASES:
            self.sql(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")

    def run(self):
        bench = self.bench
        if not self.psql:
            bench.notes.append("postgres skipped: psql is not installed (apt-get install postgresql-client)")
            return
        full = bench.data["full"]
        files = [os.path.join(full, "artists.csv"), os.path.join(full, "artworks.csv")]
        m = bench.alternate("PostgreSQL CSV import", [self.copy_peer(full), self.cloudseed_import(files),
                                                       bench.cloudseed_import(files, name="cloudseed into SQLite")])
        cs, copy, sqlite = m["cloudseed"], m["psql \\copy"], m["cloudseed into SQLite"]
        total = bench.rows + bench.artists
        r = cs.time / copy.time if cs.ok and copy.ok else float("nan")
        bench.row(f"PostgreSQL: CSV import, types inferred, references resolved ({bench.rows:,} + {bench.artists:,} rows)",
                  cs, total, f"psql \\copy (text columns) {copy.cell()}; the same cloudseed import into SQLite {sqlite.cell()}",
                  r, "psql \\copy", "≤ 2.5× psql \\copy (issue 9)", None if r != r else r <= 2.5)
        if cs.ok and copy.ok and sqlite.ok:
            own = cs.time - sqlite.time
            part = (f"The PostgreSQL store's own part, the difference, is {own:.2f} s, {own / copy.time:.1f}× psql \\copy's "
                    f"{copy.time:.2f} s (typed columns and the primary key, where \\copy loads untyped text)."
                    if own > 0 else
                    f"The import into PostgreSQL was {-own:.2f} s faster than into SQLite: the PostgreSQL store's own part is "
                    "within the run-to-run noise here.")
            bench.notes.append(
                f"PostgreSQL: cloudseed's import takes {cs.time:.2f} s into PostgreSQL and {sqlite.time:.2f} s into SQLite: reading, "
                f"typing and naming the rows (the same work for both stores) dominate. {part}")
        if cs.ok:
            counts, dangling = self.stored_counts()
            ok = counts == {"Artist": bench.artists, "Artwork": bench.rows}
            bench.checks.append(("PostgreSQL import: row counts and references", ok and dangling == 0,
                                 f"{counts}, {dangling} artworks whose artist is not an Artist row"))
        self.drop_databases()


def postgres_import(bench):
    """The postgres workload, into the server that --postgres names."""
    PostgresWorkload(bench, bench.args.postgres).run()


STEPS = [("postgres", postgres_import)]


def main(argv=None):
    parser = arguments(__doc__, postgres=True)
    args, only = parse(parser, argv, ["postgres"])
    return run_workloads(args, only, STEPS)


if __name__ == "__main__":
    sys.exit(main())
