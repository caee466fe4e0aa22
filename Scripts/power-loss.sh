#!/usr/bin/env bash
# The power-loss tests with more cut points than the normal `swift test` (100 per
# scenario): 500 by default, or the first argument. A second argument sets the seed (18
# by default). Prints one line of figures per scenario.
#
#   Scripts/power-loss.sh [cuts] [seed]
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --build-tests
export SWIFTLITE_POWERLOSS_CUTS="${1:-500}"
export SWIFTLITE_POWERLOSS_SEED="${2:-18}"
log="${TMPDIR:-/tmp}/swiftlite-power-loss.log"
status=0
swift test --skip-build --filter 'PowerLossTests|PowerLossBackupTests|PowerLossMigrationTests' >"$log" 2>&1 || status=$?
grep -E '^power loss:|error:|Executed' "$log" || true
echo "cuts per scenario: $SWIFTLITE_POWERLOSS_CUTS, seed: $SWIFTLITE_POWERLOSS_SEED, log: $log"
exit "$status"
