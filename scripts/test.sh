#!/usr/bin/env bash
# The tests (npm test's last step, npm run test:only alone): every test file under test/, two files
# at a time, but for the files below, which run first and alone.
#
# Two at a time: many files spend most of their time waiting (a reader paced at 64 KB/s, a browser,
# a server starting). On a machine of two cores, where node --test's own default is one file at a
# time, the suite takes about two thirds of that time; three at a time, no less (bench/results.md).
# Extra arguments go to both runs of node --test.
set -uo pipefail
cd "$(dirname "$0")/.."

# Files that must have the machine and the checkout to themselves:
# - no-stall bounds a delay in wall-clock time (a probe's wait while the server works): another
#   file's load beside it would be timed with it;
# - server runs `npm run build`, and production-install makes a source newer than dist/ to see
#   scripts/ensure-build.js build again: a build empties dist/ before it writes it anew, while other
#   files start dist/server.js (a start-up-cache server, beside it, found no question browser).
#   After them, dist/ is up to date and every later scripts/ensure-build.js leaves it as it is.
alone=(test/no-stall.test.ts test/server.test.ts test/production-install.test.ts)

together=()
while IFS= read -r file; do
  [[ " ${alone[*]} " == *" $file "* ]] || together+=("$file")
done < <(find test -name '*.test.ts' | sort)

run () {
  node --disable-warning=ExperimentalWarning --import tsx --test --test-reporter=spec "$@"
}

run "${@}" "${alone[@]}"
alone_status=$?
run --test-concurrency=2 "${@}" "${together[@]}"
together_status=$?
[ "$alone_status" = 0 ] && [ "$together_status" = 0 ]
