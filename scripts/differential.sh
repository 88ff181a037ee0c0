#!/usr/bin/env bash
# The long differential run (issue 21): the fast pipeline against the full
# one on many seeded mutations of the real corpus, then on generated
# documents under the fuzzer, as they are and split into version documents.
# Any difference fails the run; a corpus pair that differs is kept under
# $OUT, a fuzz input under cmd/apiver/testdata/fuzz/<the fuzz test>/.
#
#   scripts/differential.sh
#   MUTATIONS=60 FUZZTIME=5m SEED=42 scripts/differential.sh
#
#   MUTATIONS  mutations of the corpus, in all (default 300)
#   SNAPSHOTS  how many snapshots, oldest first, to draw from (default 0: all)
#   SEED       the corpus run's seed (default: random, printed)
#   FUZZTIME   each fuzz test's budget (default 10m)
#   OUT        where differing corpus pairs are kept (default: a temporary
#              folder, removed when nothing differs)
set -euo pipefail
cd "$(dirname "$0")/.."
mutations=${MUTATIONS:-300}
snapshots=${SNAPSHOTS:-0}
seed=${SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
fuzztime=${FUZZTIME:-10m}
out=${OUT:-$(mktemp -d)}
mkdir -p "$out" && out=$(cd "$out" && pwd)
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0

echo "== corpus: $mutations mutations, seed $seed, snapshots: $([ "$snapshots" = 0 ] && echo all || echo "the oldest $snapshots")"
APIVER_DIFF_MUTATIONS=$mutations APIVER_DIFF_SEED=$seed APIVER_DIFF_SNAPSHOTS=$snapshots \
  APIVER_LONG=1 go test ./cmd/apiver -run '^TestPipelinesAgreeOnCorpusMutations$' -count=1 -timeout 0 -v \
  -artifacts -outputdir "$out" >"$log" 2>&1 || status=1
grep -E 'revision [0-9]+ \(|compared|kept in|^(--- |FAIL|ok|PASS)' "$log" || true
if [ "$status" != 0 ]; then
  echo "the corpus run failed; its whole log:"
  cat "$log"
fi

# Nearly every input reaches new code in kin-openapi or oasdiff; minimising
# each (60 s by default) would spend the budget.
for target in FuzzPipelinesAgree FuzzDocumentPipelinesAgree FuzzResourcePipelinesAgree; do
  echo "== fuzz: $target for $fuzztime"
  go test ./cmd/apiver -run '^$' -fuzz "^$target\$" -fuzztime "$fuzztime" -fuzzminimizetime 1x -timeout 0 >"$log" 2>&1 || { status=1; grep -vE '^fuzz: elapsed' "$log" || true; }
  execs=$(grep -oE 'execs: [0-9]+' "$log" | tail -n 1 | grep -oE '[0-9]+' || echo 0)
  echo "fuzz: $execs generated pairs through both pipelines"
done
if [ "$status" != 0 ]; then
  echo "DIFFERENCES FOUND (corpus seed $seed; differing corpus pairs under $out)"
  exit 1
fi
[ -n "${OUT:-}" ] || rm -rf "$out"
echo "no difference"
