#!/usr/bin/env bash
# Runs a CloudKit Web Services client that this project did not write against `cloudseed serve`: one
# swift-openapi-generator generates from ../shared/cloudkit-ws/openapi.yaml (published by others),
# over the seeded gallery. Skipped, with its reason, where that file is absent.
set -euo pipefail
cd "$(dirname "$0")/../.."
spec=../shared/cloudkit-ws/openapi.yaml
if [ ! -f "$spec" ]; then
  echo "OpenAPI client check skipped: $spec is absent; it is published by others, beside the project, not in it"
  exit 0
fi
cp "$spec" Tests/OpenAPIClient/Sources/CloudKitClientCheck/openapi.yaml
swift build --product cloudseed
swift build --package-path Tests/OpenAPIClient --scratch-path .build-openapi-client

root=$PWD
work=$(mktemp -d)
server=""
stop() {
  if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap stop EXIT
(cd "$work" && "$root/.build/debug/cloudseed" seed "$root/SampleData/gallery.json" >/dev/null)
"$root/.build/debug/cloudseed" serve --store "$work/cloudseed.sqlite" --port 0 >"$work/serve.log" 2>&1 &
server=$!
url=""
for _ in $(seq 100); do
  url=$(sed -n 's/^Serving .* on \(http:[^ ]*\) .*/\1/p' "$work/serve.log")
  [ -n "$url" ] && break
  sleep 0.1
done
if [ -z "$url" ]; then
  cat "$work/serve.log"
  echo "error: cloudseed serve did not start"
  exit 1
fi
.build-openapi-client/debug/CloudKitClientCheck "$url"
