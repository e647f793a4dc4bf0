#!/usr/bin/env bash
# Builds a Core Data SQLite store from one of the SQL scripts in Tests/Fixtures/CoreData/Stores/
# (written the way Core Data lays out its stores): make-coredata-store.sh <script.sql> <store.sqlite>.
# The tests build the same stores with GRDB; this is for trying `strata import coredata-store` by hand.
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: $0 <script.sql> <store.sqlite>" >&2; exit 64; }
rm -f "$2"
sqlite3 "$2" < "$1"
echo "wrote $2"
