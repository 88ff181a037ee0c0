#!/usr/bin/env bash
# Measures `apiver check` against oasdiff used directly (load + diff + check)
# on the same real pair, in one run: wall time and peak memory of each, then
# the Go benchmarks. Needs ../shared/corpus; prints nothing useful without it.
set -euo pipefail
cd "$(dirname "$0")/.."
corpus=../shared/corpus
[ -d "$corpus/atlas" ] || { echo "skipped: $corpus/atlas is absent"; exit 0; }
base=${1:-atlas-api-2024-11-19.yaml}
revision=${2:-atlas-api-2024-12-19.yaml}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$corpus/unpack.sh" "$work/specs" >/dev/null
go build -o "$work/apiver" ./cmd/apiver
go build -o "$work/oasdiffdirect" ./internal/cmd/oasdiffdirect

measure() { # name command...
  local name=$1; shift
  /usr/bin/time -f "%e %M" -o "$work/time" "$@" >"$work/out" 2>&1 || true
  read -r wall rss < <(tail -n 1 "$work/time")
  printf '%-14s wall %5ss  peak RSS %4d MB  %s\n' "$name" "$wall" $((rss / 1024)) "$(tail -n 1 "$work/out")"
}
for run in 1 2 3; do
  measure "apiver check" "$work/apiver" check --config cmd/apiver/testdata/atlas.yaml "$work/specs/$base" "$work/specs/$revision"
  measure "oasdiff" "$work/oasdiffdirect" "$work/specs/$base" "$work/specs/$revision"
done
go test ./cmd/apiver -run '^$' -bench 'CheckRealPair|OasdiffDirect' -benchmem -count 3
