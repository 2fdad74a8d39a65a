#!/usr/bin/env bash
# Compares the CloudSeed library's public API (with the targets it re-exports) with
# Tests/API/public-symbols.txt and fails on any difference, so the API changes only on purpose.
# `--update` rewrites the list after such a change.
set -euo pipefail
cd "$(dirname "$0")/../.."

# The library's graph is what counts: the test modules' graphs fail where tests are not built yet.
rm -rf .build/*/symbolgraph
output=$(swift package dump-symbol-graph --minimum-access-level public 2>&1) || true
folder=$(echo "$output" | sed -n 's/^Files written to //p' | tail -1)
if [ -z "$folder" ] || [ ! -f "$folder/CloudSeed.symbols.json" ]; then
  echo "$output"
  echo "error: no symbol graph of the CloudSeed library; fix the build above"
  exit 1
fi
current=$(mktemp)
trap 'rm -f "$current"' EXIT

# The API an app's `import CloudSeed` sees: CloudSeed's and that of the targets it re-exports.
modules="CloudSeed $(sed -n 's/^@_exported public import //p' Sources/CloudSeed/*.swift)"
python3 - "$folder" $modules >"$current" <<'PYTHON'
import glob, json, sys

lines = set()
paths = []
for module in sys.argv[2:]:
    paths += glob.glob(f"{sys.argv[1]}/{module}.symbols.json") + glob.glob(f"{sys.argv[1]}/{module}@*.symbols.json")
for path in paths:
    graph = json.load(open(path))
    for symbol in graph["symbols"]:
        if symbol["accessLevel"] not in ("public", "open"):
            continue
        declaration = "".join(fragment["spelling"] for fragment in symbol["declarationFragments"])
        lines.add(f'{".".join(symbol["pathComponents"])}  {" ".join(declaration.split())}')
print("\n".join(sorted(lines)))
PYTHON

if [ "${1:-}" = "--update" ]; then
  cp "$current" Tests/API/public-symbols.txt
  echo "Tests/API/public-symbols.txt: $(wc -l <"$current") public symbols"
elif ! diff -u Tests/API/public-symbols.txt "$current"; then
  echo "error: the public API differs from Tests/API/public-symbols.txt (- listed, + built);" \
    "make the symbol internal or package, or run Tests/API/check-public-api.sh --update if the change is meant"
  exit 1
else
  echo "public API: $(wc -l <"$current") symbols, as listed"
fi
