#!/usr/bin/env bash
# Runs the concurrency tests under ThreadSanitizer (and, with --address, the whole suite
# under AddressSanitizer), in a build folder of their own so the ordinary build stays as it
# is. Too slow for every CI run on 2 cores; run it before a release and put its result in
# the notes.
#
#   Scripts/sanitizers.sh            # TSan on the concurrency tests
#   Scripts/sanitizers.sh --address  # ASan on every test
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
if [ "${1:-}" = "--address" ]; then
  swift test --scratch-path .build/asan --sanitize=address
  exit
fi
filter='QueueStressTests|DatabaseQueueTests|DatabasePoolTests|ObservationTests|QueryCacheTests|CommitInvalidationTests|ReleasedDatabaseTests|EscapedStatementTests|DatabaseSessionTests'
TSAN_OPTIONS="${TSAN_OPTIONS:-halt_on_error=1 second_deadlock_stack=1}" \
  swift test --scratch-path .build/tsan --sanitize=thread --filter "$filter"
