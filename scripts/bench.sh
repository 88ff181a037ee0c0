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
#   scripts/bench.sh            the real pairs, pull requests on the newest snapshot (one
#                               that passes, one that fails and gets the fix offer), the
#                               same pair and pull request as version documents, the same
#                               pair as resource trees, and the history (needs ../shared/corpus)
#   scripts/bench.sh growth     generated specs: 1k, 5k, 20k operations; 1, 10, 100 changed
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

"$corpus/unpack.sh" "$work/specs" >/dev/null
specs=$work/specs
"$work/benchspec" one "$specs/atlas-api-2024-12-19.yaml" "$work/pr-2024-12-19.yaml"
"$work/benchspec" broken "$specs/atlas-api-2024-12-19.yaml" "$work/broken-2024-12-19.yaml"
# The real pair split into version documents, one folder a side, and a pull
# request that changes one operation of the newest document.
split="$work/split"
APIVER_LONG=1 APIVER_SPLIT_TO="$split" go test ./cmd/apiver -run '^TestWriteDocumentSplit$' -count=1 >/dev/null
cp -r "$split/docs/2024-12-19" "$split/docs/pr"
newest=$(ls "$split/docs/pr" | tail -1)
"$work/benchspec" one "$split/docs/2024-12-19/$newest" "$split/docs/pr/$newest"
"$work/benchspec" one "$split/atlas-api-2024-12-19.yaml" "$split/pr-2024-12-19.yaml"
# The same pair as resource trees (benchspec resources: vervet's layout).
for date in 2024-11-19 2024-12-19; do
  "$work/benchspec" resources "$split/atlas-api-$date.yaml" atlas "$split/trees/$date"
done
check=("$work/apiver" check --config "$config")
for _ in $(seq "$runs"); do
  measure apiver-pr "${check[@]}" --format json "$specs/atlas-api-2024-12-19.yaml" "$work/pr-2024-12-19.yaml"
  measure oasdiff-pr "$work/oasdiff" changelog "$specs/atlas-api-2024-12-19.yaml" "$work/pr-2024-12-19.yaml" --format json
  measure apiver-full-pr "${check[@]}" --full-pipeline --format json "$specs/atlas-api-2024-12-19.yaml" "$work/pr-2024-12-19.yaml"
  measure apiver-broken "${check[@]}" --format json "$specs/atlas-api-2024-12-19.yaml" "$work/broken-2024-12-19.yaml"
  measure apiver-broken-gha "${check[@]}" --format githubactions "$specs/atlas-api-2024-12-19.yaml" "$work/broken-2024-12-19.yaml"
  measure apiver-broken-diff "$work/apiver" diff --config "$config" --format json "$specs/atlas-api-2024-12-19.yaml" "$work/broken-2024-12-19.yaml"
  measure oasdiff-broken "$work/oasdiff" changelog "$specs/atlas-api-2024-12-19.yaml" "$work/broken-2024-12-19.yaml" --format json
  measure apiver-pair "${check[@]}" --format json "$specs/atlas-api-2024-11-19.yaml" "$specs/atlas-api-2024-12-19.yaml"
  measure apiver-pair-diff "$work/apiver" diff --config "$config" --format json "$specs/atlas-api-2024-11-19.yaml" "$specs/atlas-api-2024-12-19.yaml"
  measure oasdiff-pair "$work/oasdiff" changelog "$specs/atlas-api-2024-11-19.yaml" "$specs/atlas-api-2024-12-19.yaml" --format json
  measure apiver-full-pair "${check[@]}" --full-pipeline --format json "$specs/atlas-api-2024-11-19.yaml" "$specs/atlas-api-2024-12-19.yaml"
  measure doc-pair "${check[@]}" --format json "$split/docs/2024-11-19" "$split/docs/2024-12-19"
  measure doc-pr "${check[@]}" --format json "$split/docs/2024-12-19" "$split/docs/pr"
  measure tree-pair "${check[@]}" --format json "$split/trees/2024-11-19" "$split/trees/2024-12-19"
  measure mt-pair "${check[@]}" --format json "$split/atlas-api-2024-11-19.yaml" "$split/atlas-api-2024-12-19.yaml"
  measure mt-pr "${check[@]}" --format json "$split/atlas-api-2024-12-19.yaml" "$split/pr-2024-12-19.yaml"
  measure apiver-history "$work/apiver" changelog build --config "$config" "$specs" -o "$work/history.json"
  measure kin-history "$work/oasdiffdirect" -load "$specs"/*.yaml
  measure apiver-full-history "$work/apiver" changelog build --full-pipeline --config "$config" "$specs" -o "$work/history-full.json"
done
header
compare "one operation changed in 2024-12-19 (a pull request that passes): check vs oasdiff changelog" apiver-pr oasdiff-pr
compare "the same, check --full-pipeline vs oasdiff changelog" apiver-full-pr oasdiff-pr
compare "one operation broken in 2024-12-19 (a pull request that fails, with the fix offer): check vs oasdiff changelog" apiver-broken oasdiff-broken
compare "the same, check vs apiver diff (the same loads and diff, no policy and no fix offer)" apiver-broken apiver-broken-diff
compare "the same, check --format githubactions (what CI runs) vs --format json" apiver-broken-gha apiver-broken
compare "real pair 2024-11-19 → 2024-12-19 (fails, with the fix offer): check vs oasdiff changelog" apiver-pair oasdiff-pair
compare "the same, check vs apiver diff (no policy and no fix offer)" apiver-pair apiver-pair-diff
compare "the same, check --full-pipeline vs oasdiff changelog" apiver-full-pair oasdiff-pair
compare "the same pair as 8 version documents a side vs the 2 published files" doc-pair apiver-pair
compare "one operation changed in the newest version document vs in the published file" doc-pr mt-pr
compare "the same pair as resource trees (89 documents a side) vs the 2 published files" tree-pair mt-pair
compare "changelog build of the 23 snapshots vs kin-openapi loading each once" apiver-history kin-history
compare "the same, changelog build --full-pipeline" apiver-full-history kin-history
