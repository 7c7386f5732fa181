#!/usr/bin/env bash
# A question set over a built documentation site, measured: index the site into a temporary
# index under the address its gold sections are named by, turn each file's gold URLs into that
# index's ids (gold_ids.py), and run `citeline eval citations` on each file, which prints its
# table. The sets' own run.sh scripts (postgresql/, flask/) call this with their site; see
# their README.md.
#
# Usage: eval_site.sh SITE BASE_URL PACKAGE OUT QUESTIONS.jsonl... [-- EVAL ARGUMENTS...]
#   SITE      the built site's folder (its index.html is checked), or a Markdown source
#             tree's (its index.md)
#   BASE_URL  the address the gold URLs start with, passed to `citeline ingest --base-url`
#   PACKAGE   the Debian package that installs SITE, named when it is missing
#   OUT       where the ingest log, the id-form question files and the reports go
# Arguments after `--` go to every eval (say `--model openai:<model>`). CITELINE and PYTHON
# (the commands to use) can be set in the environment; the defaults are the repository's venv.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here/../.."

if [ "$#" -lt 5 ]; then
  echo "usage: $0 SITE BASE_URL PACKAGE OUT QUESTIONS.jsonl... [-- EVAL ARGUMENTS...]" >&2
  exit 2
fi
site="$1" base_url="$2" package="$3" out="$4"
shift 4
files=()
while [ "$#" -gt 0 ] && [ "$1" != "--" ]; do
  files+=("$1")
  shift
done
if [ "$#" -gt 0 ]; then shift; fi  # the `--`; what is left goes to every eval
CITELINE="${CITELINE:-.venv/bin/citeline}"
PYTHON="${PYTHON:-.venv/bin/python}"
mkdir -p "$out"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# A built site has index.html; a Markdown source tree (typer-md/) index.md; a site with no
# front page (r-manuals/: Debian's R manuals, one page per manual) at least one page on top.
if [ ! -f "$site/index.html" ] && [ ! -f "$site/index.md" ] && ! compgen -G "$site/*.html" >/dev/null; then
  echo "No built site at $site: install Debian's $package (apt-get install $package) or set SITE." >&2
  exit 2
fi
# Gold sections are named by the site's own addresses, which only an ingest that reads a
# built site section by section and links it at --base-url produces (the `sites` work).
# (The help is read whole first: grep -q stops reading at its match, and under pipefail the
# writer's broken pipe would read as "no --base-url".)
ingest_help="$(COLUMNS=200 "$CITELINE" ingest --help)"
if [[ "$ingest_help" != *--base-url* ]]; then
  echo "This citeline's ingest has no --base-url, so it cannot give the site's sections their published addresses; merge the sites work first." >&2
  exit 2
fi

db="$work/site.sqlite"
# Exit status 1 means some files were skipped (the report names them); the rest is indexed,
# so the measurement goes on and the log says which.
status=0
"$CITELINE" ingest "$site" --db "$db" --base-url "$base_url" >"$out/ingest.log" 2>&1 || status=$?
tail -n 3 "$out/ingest.log"
if [ "$status" -gt 1 ]; then
  echo "Ingest failed (exit $status); see $out/ingest.log." >&2
  exit "$status"
fi

for questions in "${files[@]}"; do
  name="$(basename "$questions" .jsonl)"
  "$PYTHON" "$here/gold_ids.py" --db "$db" --base-url "$base_url" "$questions" "$out/$name.ids.jsonl"
  echo
  echo "== $name =="
  "$CITELINE" eval citations --db "$db" --questions "$out/$name.ids.jsonl" \
    --out "$out/$name.report.json" "$@"
done
echo
echo "Reports and the id-form question files are in $out"
