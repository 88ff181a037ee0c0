#!/usr/bin/env bash
# The full test suite, as CI runs it (.ci/run calls this script):
#
#   1. every test with the long suites on (APIVER_LONG=1): the real corpus
#      (../shared/corpus, skipped when absent), the long differential and
#      mutation budgets, the random fuzz seeds, the mass subprocess runs and
#      the browser tests (headless Chromium must be on the path);
#   2. the race detector over the packages that run work concurrently (the
#      pipeline's parallel loads and read-ahead, the history, locks and
#      atomic writes) and the command tests that drive them;
#   3. the version-document tests with GOMAXPROCS=1.
#
# Each package is printed as it ends, then the slowest tests of step 1.
# About 15 minutes on 2 cores; `go test ./...` alone (the quick suite) about 3.
#
#   scripts/test.sh
#   SLOWEST=20 scripts/test.sh
set -euo pipefail
cd "$(dirname "$0")/.."

# gotestsum reads `go test -json`: a line per package as it ends, and the
# slowest tests afterwards. Pinned; `go run` builds it once into Go's cache.
GOTESTSUM_VERSION=v1.13.0
gotestsum() { go run "gotest.tools/gotestsum@$GOTESTSUM_VERSION" "$@"; }
slowest=${SLOWEST:-10}
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

step() { printf '\n== %s\n' "$*"; }
took() { printf '   (%s: %d s)\n' "$1" "$(($(date +%s) - $2))"; }

step "go test, long suites on (APIVER_LONG=1)"
start=$(date +%s)
# The real-corpus tests of the command run apiver as processes of their own;
# they run beside the rest of the suite, whose command tests run apiver in
# the test process, one at a time, on one core.
corpus_tests='^(TestPipelinesAgreeOnRealCorpus|TestRealHistoryUnderMemoryLimit|TestPipelinesAgreeOnRealHistory|TestRealHistoryDetectsLatestVersion|TestRealPairOneScreen|TestDocumentFormFindsMediaTypeErrors|TestPipelinesAgreeOnCorpusMutations|TestPipelinesAgreeOnWholesaleEdits)$'
APIVER_LONG=1 gotestsum --format pkgname --jsonfile "$work/corpus.json" -- -timeout 45m -run "$corpus_tests" ./cmd/apiver >"$work/corpus.log" 2>&1 &
corpus=$!
status=0
APIVER_LONG=1 gotestsum --format pkgname --jsonfile "$work/rest.json" -- -timeout 45m -skip "$corpus_tests" ./... || status=$?
wait "$corpus" || status=1
echo "the real-corpus tests of cmd/apiver:"
cat "$work/corpus.log"
took "tests" "$start"
echo "the $slowest slowest tests:"
cat "$work/corpus.json" "$work/rest.json" | gotestsum tool slowest --num "$slowest"
[ "$status" = 0 ] || exit "$status"

step "go test -race: the packages that run work concurrently"
start=$(date +%s)
# Then the command tests that load pairs, documents and histories in
# parallel and take locks. -short keeps the race detector off the long
# suites.
gotestsum --format pkgname -- -race -short -timeout 20m \
  ./specs/... ./load ./versions ./pipeline ./changelog ./diff ./site ./internal/...
gotestsum --format pkgname -- -race -short -timeout 20m ./cmd/apiver \
  -run '^(TestPipelinesAgreeOnRuleCases|TestPipelinesAgreeOnHistory|TestDocumentPipelinesAgree|TestDocumentInputErrorsNotHidden|TestConcurrentUpdate|TestLockTimeout)$'
took "race detector" "$start"

step "go test with GOMAXPROCS=1: the version-document tests"
start=$(date +%s)
# What Go gives a 1-CPU container: the fast pass's read-ahead must not wait
# on itself. The processes these tests start inherit it.
GOMAXPROCS=1 gotestsum --format pkgname -- -short -timeout 20m ./specs/... ./cmd/apiver \
  -run '^(TestReadDocumentSet|TestDocument.*|TestHostile.*)$'
took "one CPU" "$start"
