#!/usr/bin/env bash
# `npm test`: the type check and every jest file (then again on MongoDB, jest.config.js FOLIO_TEST_STORES=all),
# then the files that time the event loop alone (test/support/timed-apart.js).
# The type check (tsc, one thread, ~25 s of CPU) runs beside jest at a lower priority instead of before it: it takes
# what the jest workers leave idle while their servers wait on sockets, timers and child processes, and
# gives way when they need the cores, so timing-sensitive tests see the load they saw. Its output comes at the
# end; the run fails if either fails.
set -u
cd "$(dirname "$0")/../.."
log=$(mktemp)
nice -n 15 npx tsc --noEmit > "$log" 2>&1 &
typecheck=$!
FOLIO_TEST_STORES=all npx jest "$@"
tests=$?
# the files that bound the event loop's lag, alone (test/support/timed-apart.js)
if [ "$#" -eq 0 ]; then
  npx jest $(node -p "require('./test/support/timed-apart.js').join(' ')")
  apart=$?
  if [ "$tests" -eq 0 ]; then tests=$apart; fi
fi
wait "$typecheck"
checked=$?
cat "$log"
rm -f "$log"
if [ "$checked" -ne 0 ]; then
  echo "npm run typecheck failed (exit $checked)" >&2
  exit "$checked"
fi
exit "$tests"
