#!/usr/bin/env bash
# Measures how StrataPlugin behaves in incremental builds of a package that uses it.
#
#   Scripts/measure-plugin-builds.sh [PACKAGE_DIR] [MODEL_FOLDER]
#
# PACKAGE_DIR defaults to Tests/Consumer; MODEL_FOLDER (relative to it) to the first folder under
# its Schemas/. Each step is one `swift build -v`, timed (wall clock), with the number of times the
# generator (`strata-generator build-plugin`) ran and the modules that were compiled:
#
#   warm-up       whatever is needed to make the package up to date (not a measurement)
#   no-op         nothing changed: the generator must not run and nothing is compiled
#   touch         the latest version's mtime changes, not its bytes: the generator runs, rewrites
#                 nothing (same bytes), so nothing is compiled
#   new version   a copy of the latest version is added as v(N+1).yaml: the generator runs, every
#                 generated file changes (its header names the new version), and only the modules
#                 that use the generated code are compiled again
#   restore       the added version is removed again (same as above, back to the committed state)
#
# Extra arguments for swift build can be given in SWIFT_BUILD_FLAGS (e.g. "-c release").
# Exits 1 if the no-op build ran the generator or compiled anything, or a schema change did not
# run it. The package's files are restored on exit, whatever happens.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
package="$(cd "${1:-$root/Tests/Consumer}" && pwd)"
cd "$package"
if [ -n "${2:-}" ]; then
    model="$2"
else
    model="$(find Schemas -mindepth 1 -maxdepth 1 -type d | sort | head -1)"
fi
[ -d "$model" ] || { echo "error: no model folder (looked for ${model:-Schemas/<Model>} in $package)" >&2; exit 1; }
latest="$(cd "$model" && ls v*.yaml | sed -E 's/^v([0-9]+)\.yaml$/\1/' | sort -n | tail -1)"
next=$((latest + 1))
added="$model/v$next.yaml"
[ ! -e "$added" ] || { echo "error: $added already exists" >&2; exit 1; }
trap 'rm -f "$added"' EXIT

log="$(mktemp -d)"
read -r -a flags <<< "${SWIFT_BUILD_FLAGS:-}"
failed=0

# build NAME: one timed `swift build -v`; prints seconds, generator runs, compiled modules.
build() {
    local name="$1" out="$log/$1.log" start end status=0
    start=$(date +%s%N)
    swift build -v ${flags[@]+"${flags[@]}"} > "$out" 2>&1 || status=$?
    end=$(date +%s%N)
    if [ "$status" -ne 0 ]; then
        cat "$out" >&2
        echo "error: swift build failed in step '$name'" >&2
        exit 1
    fi
    seconds=$(awk -v ns=$((end - start)) 'BEGIN { printf "%.2f", ns / 1e9 }')
    runs=$(grep -c ' build-plugin --model-folder ' "$out" || true)
    # Package modules only: SwiftPM compiles plugin scripts (against PluginAPI) on every build.
    modules=$(grep -E 'swift-frontend -frontend -c |swiftc .*-module-name ' "$out" | grep -v '/PluginAPI' \
        | grep -oE -- '-module-name [A-Za-z0-9_]+' | awk '{ print $2 }' | sort -u | paste -sd, - || true)
    printf '%-12s %8ss   generator runs: %s   compiled: %s\n' "$name" "$seconds" "$runs" "${modules:--}"
}

echo "package: $package"
echo "model:   $model (latest v$latest)"
echo "swift:   $(swift --version 2>/dev/null | head -1)"
echo
build warm-up
build no-op
if [ "$runs" -ne 0 ] || [ -n "$modules" ]; then echo "FAIL: the no-op build ran the generator or compiled something" >&2; failed=1; fi
touch "$model/v$latest.yaml"
build touch
if [ "$runs" -eq 0 ]; then echo "FAIL: touching a schema did not run the generator" >&2; failed=1; fi
sed -E "s/^version:[[:space:]]*$latest[[:space:]]*\$/version: $next/" "$model/v$latest.yaml" > "$added"
build 'new version'
if [ "$runs" -eq 0 ]; then echo "FAIL: adding a version did not run the generator" >&2; failed=1; fi
rm -f "$added"
build restore
build no-op
echo
echo "build logs: $log"
exit "$failed"
