#!/usr/bin/env bash
# The Python-docs development questions asked of the whole Python 3.11 documentation: Debian's
# python3.11-doc, 530 pages and 4,589 sections (the library and language references, the C
# API, every "What's New"), where the bundled sample holds 618 sections of the tutorial, FAQ,
# HOWTOs and glossary. The questions and their gold sections are the sample's
# (../python-docs.jsonl, ../python-docs-followups.jsonl), written before any tuning; their ids
# are the site's addresses relative to https://docs.python.org/3.11/; a glossary entry's
# anchor (glossary.html#term-lambda) is that term's own section. A section of the references that answers as well is not gold, so cites
# gold and precision understate; the expected term is the measure to read. Extra arguments go
# to both evals; reports land in $OUT.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here/../../.."
SITE="${SITE:-/usr/share/doc/python3.11/html}"
BASE_URL="https://docs.python.org/3.11/"
OUT="${OUT:-$(mktemp -d /tmp/devset-python-site.XXXXXX)}"
CITELINE="${CITELINE:-.venv/bin/citeline}"
PYTHON="${PYTHON:-.venv/bin/python}"
if [ ! -f "$SITE/index.html" ]; then
  echo "No Python documentation at $SITE: install Debian's python3.11-doc (apt-get install python3.11-doc) or set SITE." >&2
  exit 2
fi
mkdir -p "$OUT"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
db="$work/site.sqlite"
"$CITELINE" ingest "$SITE" --db "$db" --base-url "$BASE_URL" >"$OUT/ingest.log" 2>&1
tail -n 1 "$OUT/ingest.log"
for name in python-docs python-docs-followups; do
  "$PYTHON" benchmarks/questions/gold_ids.py --db "$db" --base-url "$BASE_URL" --relative \
    --within-page "benchmarks/questions/$name.jsonl" "$OUT/$name.ids.jsonl"
  echo
  echo "== $name (whole site) =="
  "$CITELINE" eval citations --db "$db" --questions "$OUT/$name.ids.jsonl" \
    --out "$OUT/$name.report.json" "$@"
done
echo
echo "Reports and the id-form question files are in $OUT"
