#!/usr/bin/env bash
# Runs the test command (`npm test`: lint, typecheck, build, vitest) while busy processes keep
# every core busy, then prints one summary line. A suite that is green only on an idle machine is
# broken; this is how to see that it is not.
#
#   scripts/test-under-load.sh [arguments for vitest, e.g. test/stdio-*.test.ts]
#
# LOAD_PROCESSES sets how many busy processes run (default: one per core); TEST_LIMIT_S bounds
# the whole run (default 1200 s, then the test command's process group is killed). The busy
# processes are stopped however the script ends, and each stops by itself after the bound too.
# Exits with the test command's status (124 when the bound ran out).
set -uo pipefail
cd "$(dirname "$0")/.."

cores=$(node -p 'require("node:os").availableParallelism()')
count=${LOAD_PROCESSES:-$cores}
limit=${TEST_LIMIT_S:-1200}
report=$(mktemp -t mcpwire-load-report.XXXXXX.json)
load=()
runner=

stop_load() {
  [ "${#load[@]}" -eq 0 ] || kill "${load[@]}" 2>/dev/null
  wait "${load[@]}" 2>/dev/null
  rm -f "$report"
}
# Interrupted: stop the test run too (timeout passes the signal on to its whole process group).
on_signal() {
  if [ -n "$runner" ]; then
    kill -TERM "$runner" 2>/dev/null
    wait "$runner" 2>/dev/null
  fi
  exit "$1"
}
trap stop_load EXIT
trap 'on_signal 130' INT
trap 'on_signal 143' TERM

for ((i = 0; i < count; i++)); do
  node -e "const end = Date.now() + ${limit}e3 + 60e3; while (Date.now() < end);" &
  load+=("$!")
done
echo "test-under-load: ${count} busy process(es) on ${cores} core(s); the run is bounded at ${limit} s"

started=$(date +%s)
# timeout runs the command in a process group of its own and signals all of it on expiry. It
# runs in the background so that a signal to this script is handled at once (see on_signal).
timeout --kill-after=30 "$limit" npm test -- --reporter=default --reporter=./test/reporters/json-with-unhandled-errors.ts --outputFile.json="$report" "$@" &
runner=$!
wait "$runner"
status=$?
runner=
elapsed=$(($(date +%s) - started))

counts="no test report (the run failed before vitest finished)"
if [ -s "$report" ]; then
  counts=$(node -e '
    const r = JSON.parse(require("node:fs").readFileSync(process.argv[1], "utf8"));
    console.log(`${r.numPassedTests} passed, ${r.numFailedTests} failed, ${r.numUnhandledErrors ?? 0} unhandled error(s)`);
  ' "$report")
fi
echo "test-under-load: ${counts}; exit ${status} after ${elapsed} s with ${count} busy process(es) on ${cores} core(s)"
exit "$status"
