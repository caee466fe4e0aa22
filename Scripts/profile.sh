#!/usr/bin/env bash
# Counts the instructions of a benchmark workload's timed part, on each side, with
# callgrind: what the raw C API runs and what SwiftLite runs for the same work.
#
#   Scripts/profile.sh <workload> [rows]      (rows default 20000)
#
# Prints, per side, the instructions inside Trial.timedSection and that count per row;
# the callgrind files stay in .build/profile/ for callgrind_annotate.
set -euo pipefail
cd "$(dirname "$0")/.."
workload=${1:?usage: Scripts/profile.sh <workload> [rows]}
rows=${2:-20000}
command -v valgrind >/dev/null || { echo "profile.sh: valgrind is not installed" >&2; exit 1; }
swift build -c release --product SwiftLiteBenchmarks >/dev/null
binary=$(swift build -c release --show-bin-path)/SwiftLiteBenchmarks
mkdir -p .build/profile
for side in raw swiftlite; do
  out=.build/profile/$workload.$side.callgrind
  valgrind --tool=callgrind --callgrind-out-file="$out" --toggle-collect='*timedSection*' \
    --log-file="$out.log" \
    "$binary" --only "$workload" --rows "$rows" --runs 1 --warmup 0 --side "$side" >/dev/null 2>&1
  total=$(sed -n 's/.*Collected : *\([0-9]*\).*/\1/p' "$out.log")
  printf '%-10s %14s instructions  %10.0f per row\n' "$side" "$total" "$(echo "$total / $rows" | bc -l)"
done
raw=$(sed -n 's/.*Collected : *\([0-9]*\).*/\1/p' .build/profile/$workload.raw.callgrind.log)
lite=$(sed -n 's/.*Collected : *\([0-9]*\).*/\1/p' .build/profile/$workload.swiftlite.callgrind.log)
printf 'ratio      %.3f\n' "$(echo "$lite / $raw" | bc -l)"
