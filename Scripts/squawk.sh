#!/usr/bin/env bash
# Lints the generated PostgreSQL migrations of every fixture model with squawk, the PostgreSQL
# migration linter (installed with pip when missing), under the repository's .squawk.toml.
# Prints the count of each rule that still warns; fails only when a rule that must stay clean
# warns (or squawk cannot run). Docs/Squawk.md lists the known warnings.
#
#   Scripts/squawk.sh [files...]     # default: Tests/Fixtures/Golden/*/postgres/migrations/*.sql, Generated/*/postgres/migrations/*.sql
set -euo pipefail
cd "$(dirname "$0")/.."

# Rules with no warning today that must keep none: lock-taking statements that lock-safe SQL
# replaced, nesting, and SQL that squawk cannot parse (it would lint nothing of that file).
must_be_clean=(
    disallowed-unique-constraint
    adding-required-field
    adding-field-with-default
    adding-serial-primary-key-field
    ban-concurrent-index-creation-in-transaction
    transaction-nesting
    syntax-error
)

if ! command -v squawk >/dev/null; then
    python3 -m pip install --quiet squawk-cli 2>/dev/null \
        || python3 -m pip install --quiet --break-system-packages squawk-cli
    command -v squawk >/dev/null || export PATH="$(python3 -c 'import sysconfig; print(sysconfig.get_path("scripts"))'):$PATH"
fi
echo "$(squawk --version)"

if [ $# -gt 0 ]; then
    files=("$@")
else
    files=(Tests/Fixtures/Golden/*/postgres/migrations/*.sql Generated/*/postgres/migrations/*.sql)
fi
report="$(mktemp)"
trap 'rm -f "$report"' EXIT
# squawk exits 1 when it warns: the JSON says what, and a run that printed none failed.
squawk --config .squawk.toml --reporter json "${files[@]}" >"$report" || true
python3 - "$report" "${#files[@]}" "${must_be_clean[@]}" <<'PY'
import collections, json, sys

path, file_count, must_be_clean = sys.argv[1], int(sys.argv[2]), set(sys.argv[3:])
try:
    with open(path) as handle:
        warnings = json.load(handle)
except ValueError:
    sys.exit("squawk did not run: " + open(path).read()[:2000])
counts = collections.Counter(warning["rule_name"] for warning in warnings)
print(f"squawk: {len(warnings)} warnings in {file_count} files (rules excluded in .squawk.toml)")
for rule, count in sorted(counts.items(), key=lambda item: (-item[1], item[0])):
    print(f"  {count:4d}  {rule}")
broken = [w for w in warnings if w["rule_name"] in must_be_clean]
for warning in broken:
    print(f"{warning['file']}:{warning['line'] + 1}:{warning['column'] + 1}: error: {warning['rule_name']}: {warning['message']}")
if broken:
    sys.exit(f"squawk: {len(broken)} warnings from rules that must stay clean: {', '.join(sorted(must_be_clean))}")
print(f"squawk: none from the rules that must stay clean ({', '.join(sorted(must_be_clean))})")
PY
