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
from measure import arguments, parse, run_process


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
# cloudseed's default container, and the PostgreSQL schema of its development environment.
CONTAINER = "iCloud.com.example.cloudseed"
SCHEMA = "icloud_com_example_cloudseed_development"


def environment_schema(environment):
    """The PostgreSQL schema of the default container's `environment`."""
    return f"icloud_com_example_cloudseed_{environment}"


def literal(text):
    return "'" + text.replace("'", "''") + "'"


class PostgresWorkload:
    def __init__(self, bench, url):
        self.bench, self.url = bench, url
        self.psql = shutil.which("psql")
        self.templates = []  # the databases made once and copied before each run, dropped at the end

    def sql(self, statement, database=None):
        url = database_url(self.url, database) if database else self.url
        done = subprocess.run([self.psql, "-X", "-q", "-At", url, "-c", statement], capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError(f"psql {redacted(url)} -c {statement!r} failed: {done.stderr.strip()}")
        return done.stdout.strip()

    def fresh_database(self, name, template=None):
        """An empty database `name` (or a copy of the database `template`), the other workload
        database dropped and the server quiet: a million rows loaded draw autovacuum's VACUUM and
        ANALYZE (0.5-1 s of CPU) about a minute later, which would otherwise fall inside whichever
        run is timed then. A checkpoint then writes out what the runs before left in memory (and the
        copy of a template): each load writes some 300 MB of WAL, and the checkpoint that much WAL
        draws fell inside whichever run came third or so."""
        for database in DATABASES:
            self.sql(f"DROP DATABASE IF EXISTS {database} WITH (FORCE)")
        self.wait_for_autovacuum()
        self.sql(f"CREATE DATABASE {name}" + (f" TEMPLATE {template}" if template else ""))
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

    def gallery_tables(self, folder):
        """The gallery's two tables and the CSVs `\\copy` fills them from."""
        return [("artists", os.path.join(folder, "artists.csv")), ("artworks", os.path.join(folder, "artworks.csv"))]

    def create_tables(self, files, database):
        for table, path in files:
            columns = ", ".join('"' + name.replace('"', '""') + '" text' for name in self.header(path))
            self.sql(f"CREATE TABLE {table} ({columns})", database)

    def copy_argv(self, url, files):
        """One psql process `\\copy`ing each CSV into its table."""
        return ([self.psql, "-X", "-q", url]
                + [arg for table, path in files for arg in ("-c", f"\\copy {table} FROM '{path}' WITH (FORMAT csv, HEADER)")])

    def copy_peer(self, folder, name="psql \\copy", after=None):
        files = self.gallery_tables(folder)

        def prepare(run):
            url = self.fresh_database("cloudseed_bench_copy")
            self.create_tables(files, "cloudseed_bench_copy")
            return [self.copy_argv(url, files)]
        return (name, prepare, after)

    def append_peer(self, template, artworks, name, after=None):
        """`\\copy` of an artworks CSV into a copy of `template`, whose artworks table already holds rows."""
        def prepare(run):
            url = self.fresh_database("cloudseed_bench_copy", template)
            return [self.copy_argv(url, [("artworks", artworks)])]
        return (name, prepare, after)

    def copy_template(self, name, folder):
        """A database `name` whose text tables hold the CSVs of `folder` (loaded by `\\copy`, untimed)
        and a unique index on the artworks' recordName: the table a second batch is appended to."""
        url = self.template_database(name)
        files = self.gallery_tables(folder)
        self.create_tables(files, name)
        done = subprocess.run(self.copy_argv(url, files), capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError(f"psql \\copy into {name} failed: {done.stderr.strip()}")
        self.sql('CREATE UNIQUE INDEX artworks_recordname ON artworks ("recordName")', name)
        self.settle(name)

    def cloudseed_template(self, name, commands):
        """A database `name` that cloudseed's `commands(url)` fill, untimed, to be copied before each
        run; the failed Run, if one failed."""
        url = self.template_database(name)
        for argv in commands(url):
            r = run_process(argv, self.bench.args.timeout, capture_stdout=True)
            if not r.ok:
                return r
        self.settle(name)
        return None

    def template_database(self, name):
        """A new, empty database `name`, dropped with the workload's."""
        self.sql(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        self.sql(f"CREATE DATABASE {name}")
        self.templates.append(name)
        return database_url(self.url, name)

    def settle(self, name):
        """VACUUM ANALYZE of a template just filled: autovacuum finds nothing to do in it later,
        and each copy starts from the same, settled state."""
        self.sql("VACUUM ANALYZE", name)

    def cloudseed_import(self, files, name="cloudseed", extra=(), after=None, template=None):
        def prepare(run):
            url = self.fresh_database("cloudseed_bench_import", template)
            return [self.bench.cs("import", *files, "--store", url, "--json", "--quiet", *extra)]
        return (name, prepare, after)

    def stored_counts(self, zone=None):
        """The Artist and Artwork rows of cloudseed's database, and the Artworks whose artist is no
        Artist row: of one zone, (environment, database, zone name), when given."""
        schema = environment_schema(zone[0]) if zone else SCHEMA
        where = ""
        if zone:
            environment, database, name = zone
            where = (f' WHERE a."___zone" IN (SELECT id FROM cloudseed.zones WHERE container = {literal(CONTAINER)} '
                     f'AND environment = {literal(environment)} AND database = {literal(database)} AND zone = {literal(name)})')
        counts = {t: int(self.sql(f'SELECT count(*) FROM {schema}."{t}" a{where}', "cloudseed_bench_import")) for t in ("Artist", "Artwork")}
        dangling = int(self.sql(
            f'SELECT count(*) FROM {schema}."Artwork" a LEFT JOIN {schema}."Artist" b '
            'ON b."___recordID" = a.artist AND b."___zone" = a."___zone"'
            + (where + " AND" if where else " WHERE") + ' b."___recordID" IS NULL', "cloudseed_bench_import"))
        return counts, dangling

    def copied_rows(self, table="artworks"):
        """The rows of psql's table after its \\copy."""
        return int(self.sql(f"SELECT count(*) FROM {table}", "cloudseed_bench_copy"))

    def drop_databases(self):
        for name in DATABASES + tuple(self.templates):
            self.sql(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        self.templates = []

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
