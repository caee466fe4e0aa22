#!/usr/bin/env bash
# Measures the benchmark three times (every workload, the default rows and runs) and writes
# Docs/benchmarks.json, then the README's table, the DocC Performance table and
# Docs/benchmarks.svg from it. Takes a while: run it on a quiet machine.
#
#   Scripts/benchmark-figures.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
swift build -c release --product SwiftLiteBenchmarks
binary="$(swift build -c release --show-bin-path)/SwiftLiteBenchmarks"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
for run in 1 2 3; do
  echo "== benchmark run $run of 3" >&2
  "$binary" --json >"$scratch/run$run.json"
done
sqlite="$(pkg-config --modversion sqlite3 2>/dev/null || echo unknown)"
swift Scripts/figures.swift merge Docs/benchmarks.json --rows 100000 --runs 7 --sqlite "$sqlite" \
  "$scratch"/run1.json "$scratch"/run2.json "$scratch"/run3.json
swift Scripts/figures.swift write
