#!/usr/bin/env bash
# Builds SwiftLite's documentation into .build/docs with the toolchain's own docc: no
# package plugin and nothing fetched.
#
#   Scripts/build-docs.sh            # from the repository root (or anywhere: it finds it)
#
# 1. Symbol graphs: `swift build --target SwiftLite` with the compiler's -emit-symbol-graph,
#    in a scratch directory of its own (.build/docs-build). This compiles the library
#    target alone; `swift package dump-symbol-graph` builds every target of the package
#    (samples, benchmarks, tests) first and then fails on the test modules, and compiler
#    flags added to the ordinary .build would make the next `swift build` recompile.
# 2. `docc convert` of Sources/SwiftLite/SwiftLite.docc with those graphs, warnings treated
#    as errors: a broken ``symbol link`` in an article or a doc comment fails the script.
#
# Environment: DOCC=/path/to/docc to use another docc than the one next to `swift`.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
root="$PWD"
start=$(date +%s%N)

elapsed() {
  local now
  now=$(date +%s%N)
  awk -v ns="$((now - start))" 'BEGIN { printf "%.1f", ns / 1e9 }'
}
trap 'status=$?; ((status == 0)) || echo "== documentation build failed after $(elapsed)s" >&2' EXIT

# The docc of the toolchain that provides `swift`.
docc="${DOCC:-}"
if [[ -z "$docc" ]]; then
  swift_path="$(command -v swift || true)"
  if [[ -n "$swift_path" && -x "$(dirname "$(readlink -f "$swift_path")")/docc" ]]; then
    docc="$(dirname "$(readlink -f "$swift_path")")/docc"
  elif command -v docc >/dev/null; then
    docc="$(command -v docc)"
  else
    echo "error: docc not found next to swift ($swift_path) nor on PATH; set DOCC" >&2
    exit 1
  fi
fi

scratch="$root/.build/docs-build"
graphs="$scratch/symbol-graphs"
output="$root/.build/docs"
catalog="$root/Sources/SwiftLite/SwiftLite.docc"

build_symbol_graphs() {
  mkdir -p "$graphs"
  swift build --scratch-path "$scratch" --target SwiftLite \
    -Xswiftc -emit-symbol-graph \
    -Xswiftc -emit-symbol-graph-dir -Xswiftc "$graphs" \
    -Xswiftc -symbol-graph-minimum-access-level -Xswiftc public \
    -Xswiftc -symbol-graph-skip-synthesized-members
}

echo "== symbol graphs (swift build --target SwiftLite, scratch $scratch)"
build_symbol_graphs
if [[ ! -f "$graphs/SwiftLite.symbols.json" ]]; then
  # The graphs are written when the module is compiled: an up-to-date build whose graphs
  # were deleted writes none, so start that build afresh.
  echo "   no symbol graph from an up-to-date build: rebuilding $scratch"
  rm -rf "$scratch"
  build_symbol_graphs
fi
echo "   symbol graphs ready after $(elapsed)s"

echo "== docc convert ($docc)"
rm -rf "$output"
"$docc" convert "$catalog" \
  --additional-symbol-graph-dir "$graphs" \
  --output-path "$output" \
  --fallback-display-name SwiftLite \
  --fallback-bundle-identifier SwiftLite \
  --warnings-as-errors

echo "== documentation in ${output#"$root"/} (open index.html through a web server), built in $(elapsed)s"
