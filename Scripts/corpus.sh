#!/usr/bin/env bash
# Runs every case of a real-world corpus through strata; see Scripts/corpus.py --help.
#   Scripts/corpus.sh ../shared/corpus [--strata .build/debug/strata] [--postgres URL]
set -euo pipefail
exec python3 "$(dirname "$0")/corpus.py" "$@"
