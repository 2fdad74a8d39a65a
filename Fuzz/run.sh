#!/usr/bin/env bash
# Builds the libFuzzer target with AddressSanitizer and fuzzes each parser for a bounded time.
#   Fuzz/run.sh [SECONDS_PER_TARGET]      (default 60)
# Crashes are written to Fuzz/crashes/<target>/; replay one with
#   CLOUDSEED_FUZZ=json .build/debug/cloudseed-fuzz FILE
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
swift build -c release --product cloudseed-fuzz --scratch-path .build-fuzz \
  -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library -Xswiftc -DFUZZING 2>&1 | grep -v "ld.gold: warning" | tail -3
binary=.build-fuzz/release/cloudseed-fuzz
for target in csv json plist ckdb; do
  mkdir -p "Fuzz/crashes/$target" "/tmp/cloudseed-fuzz-corpus/$target"
  cp Fuzz/corpus/"$target"/* "/tmp/cloudseed-fuzz-corpus/$target/" 2>/dev/null || true
  echo "== $target: $seconds s"
  CLOUDSEED_FUZZ=$target "$binary" "/tmp/cloudseed-fuzz-corpus/$target" \
    -max_total_time="$seconds" -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
    -artifact_prefix="Fuzz/crashes/$target/" -print_final_stats=1 2>&1 | grep -E "stat::number_of_executed_units|ERROR|SUMMARY|Done" || true
done
