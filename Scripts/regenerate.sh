#!/usr/bin/env bash
# Rewrites every committed tree of generated code after a deliberate change to the generator:
# Generated/ (the TODO app), the test and benchmark targets' generated code, and the reference
# output of the fixture models. Review the diff before committing; CI fails on a stale tree.
set -euo pipefail
cd "$(dirname "$0")/.."
# STRATA_SCRATCH=path: build in that scratch path (a worktree's own), not .build.
scratch=(${STRATA_SCRATCH:+--scratch-path "$STRATA_SCRATCH"})
swift build "${scratch[@]}" --product strata
strata="$(swift build "${scratch[@]}" --show-bin-path)/strata"
"$strata" generate
"$strata" generate --schemas Tests/GeneratedRepositoryTests/Schemas --output Tests/GeneratedRepositoryTests/Generated
"$strata" generate --schemas Tests/MyTODOV1/Schemas --output Tests/MyTODOV1/Generated --databases sqlite
"$strata" generate --schemas Tests/RollingV1/Schemas --output Tests/RollingV1/Generated --databases postgres
"$strata" generate --schemas Benchmarks/Schemas --output Sources/StrataRepositoryBenchmark/Generated --databases sqlite
# The imported Core Data models: imported again from their fixtures, then generated.
rm -rf Tests/ImportedCoreDataModelTests/Schemas
"$strata" import coredata Tests/Fixtures/CoreData/Library.xcdatamodeld --schemas Tests/ImportedCoreDataModelTests/Schemas --key Shelf.code --transformable-as-data >/dev/null
"$strata" import coredata Tests/Fixtures/CoreData/MyTODO.xcdatamodeld --schemas Tests/ImportedCoreDataModelTests/Schemas >/dev/null
"$strata" generate --schemas Tests/ImportedCoreDataModelTests/Schemas --output Tests/ImportedCoreDataModelTests/Generated --databases sqlite
# The fixture models' reference output, generated from a copy (so that no strata.lock is added to them).
fixtures="$(mktemp -d)"
cp -R Tests/Fixtures/Models/. "$fixtures"
"$strata" generate --schemas "$fixtures" --output Tests/Fixtures/Golden
rm -rf "$fixtures"
for f in Tests/Fixtures/Golden/Showcase/Swift/*.swift; do t="Tests/ShowcaseModelTests/Generated/$(basename "$f")"; [ "$f" -ef "$t" ] || cp "$f" "$t"; done
# The SQL reference files of the SQL tests are rewritten by their test.
STRATA_UPDATE_GOLDEN=1 swift test "${scratch[@]}" --filter SQLReferenceTests >/dev/null
git status --short -- Generated Tests Sources
