"""The Markdown report of cloudseed's benchmark: the main table, the checks, each section (the shape
matrix), the notes and the failures of one Bench. run.py, or any part run alone, prints it."""


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
