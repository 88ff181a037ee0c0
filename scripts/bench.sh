#!/usr/bin/env bash
# Measures apiver against the oasdiff CLI that users run (oasdiff v1.35.0,
# `oasdiff changelog BASE REVISION --format json`, which loads with origins)
# and, for a history, against kin-openapi loading each snapshot once
# (internal/cmd/oasdiffdirect -load), in one run, each command RUNS times
# (default 3), alternating, and prints the minimum wall time, the
# minimum CPU time (user + system) and the minimum peak RSS of each
# (/usr/bin/time -v): on a shared machine the minimum is the figure least
# disturbed by the others. Then the ratios the README's table gives.
#
#   scripts/bench.sh            the real pairs and the history (needs ../shared/corpus)
#   scripts/bench.sh growth     generated specs: 1k, 5k, 20k operations; 1, 10, 100 changed
#   scripts/bench.sh documents  the real pair split into version documents against the
#                               same pair as published (media types), issue 24's anchor
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${RUNS:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/apiver" ./cmd/apiver
go build -o "$work/oasdiffdirect" ./internal/cmd/oasdiffdirect
go build -o "$work/benchspec" ./internal/cmd/benchspec
GOBIN="$work" go install github.com/oasdiff/oasdiff@v1.35.0
printf 'maxSpecSizeMiB: 64\n' >"$work/big.yaml"

# measure NAME COMMAND...: one run; appends "NAME wall cpu rss_mb" to $work/runs.
measure() {
  local name=$1; shift
  /usr/bin/time -v -o "$work/time" "$@" >"$work/out" 2>&1 || true
  awk -v name="$name" '
    /Elapsed \(wall clock\)/ { n = split($NF, t, ":"); wall = (n == 3) ? t[1]*3600 + t[2]*60 + t[3] : t[1]*60 + t[2] }
    /User time/ { user = $NF } /System time/ { sys = $NF }
    /Maximum resident set size/ { rss = $NF / 1024 }
    END { printf "%s %.2f %.2f %d\n", name, wall, user + sys, rss }' "$work/time" >>"$work/runs"
}
# best NAME: "wall cpu rss" minima over the runs of NAME.
best() {
  awk -v name="$1" '$1 == name {
      if (!n++ || $2 < w) w = $2; if (n == 1 || $3 < c) c = $3; if (n == 1 || $4 < r) r = $4 }
    END { printf "%.2f %.2f %d\n", w, c, r }' "$work/runs"
}
# compare LABEL APIVER_NAME OASDIFF_NAME: a table row with the ratios.
compare() {
  read -r aw ac ar < <(best "$2")
  read -r ow oc or < <(best "$3")
  awk -v l="$1" -v aw="$aw" -v ac="$ac" -v ar="$ar" -v ow="$ow" -v oc="$oc" -v or="$or" 'BEGIN {
    printf "| %s | %.2f s / %.2f s cpu / %d MB | %.2f s / %.2f s cpu / %d MB | %.2f× | %.2f× | %.2f× |\n",
      l, aw, ac, ar, ow, oc, or, aw / ow, ac / oc, ar / or }'
}
header() {
  echo "| work | apiver (wall / CPU / peak RSS) | baseline (wall / CPU / peak RSS) | wall | CPU | RSS |"
  echo "|---|---|---|---|---|---|"
}

if [ "${1:-}" = growth ]; then
  header
  for shape in "1000 1" "5000 1" "20000 1" "5000 10" "5000 100"; do
    read -r ops changed <<<"$shape"
    base="$work/gen-2024-01-01.yaml" revision="$work/gen-2024-02-01.yaml"
    "$work/benchspec" gen "$ops" "$changed" "$base" "$revision"
    for _ in $(seq "$runs"); do
      measure "apiver-$ops-$changed" "$work/apiver" check --config "$work/big.yaml" "$base" "$revision"
      measure "oasdiff-$ops-$changed" "$work/oasdiffdirect" "$base" "$revision"
    done
    compare "$ops operations, $changed changed ($(($(wc -c <"$revision") / 1024)) KB)" "apiver-$ops-$changed" "oasdiff-$ops-$changed"
  done
  exit 0
fi

corpus=../shared/corpus
[ -d "$corpus/atlas" ] || { echo "skipped: $corpus/atlas is absent"; exit 0; }
config=cmd/apiver/testdata/atlas.yaml

if [ "${1:-}" = documents ]; then
  split="$work/split"
  APIVER_LONG=1 APIVER_SPLIT_TO="$split" go test ./cmd/apiver -run '^TestWriteDocumentSplit$' -count=1 >/dev/null
  # A pull request that changes one operation of the newest document, and
  # the same change to the published file.
  cp -r "$split/docs/2024-12-19" "$split/docs/pr"
  newest=$(ls "$split/docs/pr" | tail -1)
  "$work/benchspec" one "$split/docs/2024-12-19/$newest" "$split/docs/pr/$newest"
  "$work/benchspec" one "$split/atlas-api-2024-12-19.yaml" "$split/pr-2024-12-19.yaml"
  for _ in $(seq "$runs"); do
    measure mt-pair "$work/apiver" check --config "$config" --format json "$split/atlas-api-2024-11-19.yaml" "$split/atlas-api-2024-12-19.yaml"
    measure doc-pair "$work/apiver" check --config "$config" --format json "$split/docs/2024-11-19" "$split/docs/2024-12-19"
    measure mt-pr "$work/apiver" check --config "$config" --format json "$split/atlas-api-2024-12-19.yaml" "$split/pr-2024-12-19.yaml"
    measure doc-pr "$work/apiver" check --config "$config" --format json "$split/docs/2024-12-19" "$split/docs/pr"
  done
  header
  compare "real pair 2024-11-19 → 2024-12-19: 8 version documents a side vs the 2 published files" doc-pair mt-pair
  compare "one operation changed in the newest document vs in the published file" doc-pr mt-pr
  exit 0
fi
"$corpus/unpack.sh" "$work/specs" >/dev/null
"$work/benchspec" one "$work/specs/atlas-api-2024-12-19.yaml" "$work/pr-2024-12-19.yaml"
for _ in $(seq "$runs"); do
  measure apiver-pr "$work/apiver" check --config "$config" "$work/specs/atlas-api-2024-12-19.yaml" "$work/pr-2024-12-19.yaml"
  measure oasdiff-pr "$work/oasdiff" changelog "$work/specs/atlas-api-2024-12-19.yaml" "$work/pr-2024-12-19.yaml" --format json
  measure apiver-full-pr "$work/apiver" check --full-pipeline --config "$config" "$work/specs/atlas-api-2024-12-19.yaml" "$work/pr-2024-12-19.yaml"
  measure apiver-pair "$work/apiver" check --config "$config" "$work/specs/atlas-api-2024-11-19.yaml" "$work/specs/atlas-api-2024-12-19.yaml"
  measure oasdiff-pair "$work/oasdiff" changelog "$work/specs/atlas-api-2024-11-19.yaml" "$work/specs/atlas-api-2024-12-19.yaml" --format json
  measure apiver-full-pair "$work/apiver" check --full-pipeline --config "$config" "$work/specs/atlas-api-2024-11-19.yaml" "$work/specs/atlas-api-2024-12-19.yaml"
  measure apiver-history "$work/apiver" changelog build --config "$config" "$work/specs" -o "$work/history.json"
  measure kin-history "$work/oasdiffdirect" -load "$work"/specs/*.yaml
  measure apiver-full-history "$work/apiver" changelog build --full-pipeline --config "$config" "$work/specs" -o "$work/history-full.json"
done
header
compare "one operation changed in 2024-12-19 (a pull request): check vs oasdiff changelog" apiver-pr oasdiff-pr
compare "the same, check --full-pipeline vs oasdiff changelog" apiver-full-pr oasdiff-pr
compare "real pair 2024-11-19 → 2024-12-19: check vs oasdiff changelog" apiver-pair oasdiff-pair
compare "the same, check --full-pipeline vs oasdiff changelog" apiver-full-pair oasdiff-pair
compare "changelog build of the 23 snapshots vs kin-openapi loading each once" apiver-history kin-history
compare "the same, changelog build --full-pipeline" apiver-full-history kin-history
