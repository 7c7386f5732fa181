#!/usr/bin/env bash
# The held-out PostgreSQL set, measured: index Debian's postgresql-doc-15 manual as a built
# site into a temporary index, turn the files' gold URLs into that index's ids, and run
# `citeline eval citations` on both files. Extra arguments go to both evals (say
# `--model openai:<model>`). Reports land in $OUT (default: a fresh folder under /tmp, printed
# at the end). See README.md beside this script; never tune on what it prints.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here/../../.."

SITE="${SITE:-/usr/share/doc/postgresql-doc-15/html}"
BASE_URL="https://www.postgresql.org/docs/15/"
CITELINE="${CITELINE:-.venv/bin/citeline}"
PYTHON="${PYTHON:-.venv/bin/python}"
OUT="${OUT:-$(mktemp -d /tmp/heldout-postgresql.XXXXXX)}"
mkdir -p "$OUT"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

if [ ! -f "$SITE/index.html" ]; then
  echo "No PostgreSQL manual at $SITE: install Debian's postgresql-doc-15 (apt-get install postgresql-doc-15) or set SITE." >&2
  exit 2
fi
# Gold sections are named by the manual's own addresses, which only an ingest that reads a
# built site section by section and links it at --base-url produces (the `sites` work).
# (The help is read whole first: grep -q stops reading at its match, and under pipefail the
# writer's broken pipe would read as "no --base-url".)
ingest_help="$(COLUMNS=200 "$CITELINE" ingest --help)"
if [[ "$ingest_help" != *--base-url* ]]; then
  echo "This citeline's ingest has no --base-url, so it cannot give the manual's sections their published addresses; merge the sites work first." >&2
  exit 2
fi

db="$work/postgresql-15.sqlite"
# Exit status 1 means some files were skipped (the report names them); the rest is indexed,
# so the measurement goes on and the log says which.
status=0
"$CITELINE" ingest "$SITE" --db "$db" --base-url "$BASE_URL" >"$OUT/ingest.log" 2>&1 || status=$?
tail -n 3 "$OUT/ingest.log"
if [ "$status" -gt 1 ]; then
  echo "Ingest failed (exit $status); see $OUT/ingest.log." >&2
  exit "$status"
fi

for name in postgresql-docs postgresql-docs-followups; do
  "$PYTHON" "$here/gold_ids.py" --db "$db" "$here/$name.jsonl" "$OUT/$name.ids.jsonl"
  echo
  echo "== $name =="
  "$CITELINE" eval citations --db "$db" --questions "$OUT/$name.ids.jsonl" \
    --out "$OUT/$name.report.json" "$@"
done
echo
echo "Reports and the id-form question files are in $OUT"
