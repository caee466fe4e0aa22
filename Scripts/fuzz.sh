#!/usr/bin/env bash
# Builds the libFuzzer targets of Fuzz/ with the library's sources (address sanitizer on)
# and runs each for a while. A crash stops the script with its input saved as
# .build/fuzz/crash-<target>-*; turn each into a regression test.
#
#   Scripts/fuzz.sh [seconds per target, default 20] [targets, default: all six]
#
# With FUZZ_RUNS=N each target runs N inputs from seed 1 instead (what CI does, so that a
# run is the same on every machine; hashing is made deterministic for the same reason).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
seconds="${1:-20}"
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(date fts sql decoder changeset snapshot)
out=.build/fuzz
mkdir -p "$out"
binary="$out/swiftlite-fuzz"
if [ ! -x "$binary" ] || [ -n "$(find Sources/SwiftLite Fuzz -name '*.swift' -newer "$binary")" ]; then
  echo "== building $binary"
  # shellcheck disable=SC2046
  swiftc -sanitize=fuzzer,address -parse-as-library -O -module-name SwiftLite \
    -I Sources/CSQLite -lsqlite3 -suppress-warnings \
    $(find Sources/SwiftLite -name '*.swift') Fuzz/*.swift -o "$binary"
fi
for target in "${targets[@]}"; do
  corpus="$out/corpus-$target"
  mkdir -p "$corpus"
  echo "== $target for ${seconds}s"
  if [ -n "${FUZZ_RUNS:-}" ]; then limit=(-runs="$FUZZ_RUNS" -seed=1); else limit=(-max_total_time="$seconds"); fi
  SWIFT_DETERMINISTIC_HASHING=1 SWIFTLITE_FUZZ_TARGET="$target" "$binary" "${limit[@]}" -max_len=512 \
    -artifact_prefix="$out/crash-$target-" -print_final_stats=1 "$corpus" 2>"$out/$target.log" \
    || { tail -40 "$out/$target.log"; echo "== $target found a failure: $out/crash-$target-*"; exit 1; }
  grep -E "stat::number_of_executed_units|stat::peak_rss_mb" "$out/$target.log" | tr '\n' ' '
  echo "corpus: $(find "$corpus" -type f | wc -l) inputs"
done
