#!/usr/bin/env bash
# The Flask development set, measured: index Debian's python-flask-doc site (Flask 2.2's
# documentation, built by Sphinx) into a temporary index, turn the files' gold URLs into that
# index's ids, and run `citeline eval citations` on both files (../eval_site.sh does the
# steps). Extra arguments go to both evals (say `--model openai:<model>`). Reports land in
# $OUT (default: a fresh folder under /tmp, printed at the end). See README.md beside this
# script.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
SITE="${SITE:-/usr/share/doc/python-flask-doc/html}"
OUT="${OUT:-$(mktemp -d /tmp/devset-flask.XXXXXX)}"
exec "$here/../eval_site.sh" "$SITE" "https://flask.palletsprojects.com/en/2.2.x/" python-flask-doc "$OUT" \
  "$here/flask-docs.jsonl" "$here/flask-docs-followups.jsonl" -- "$@"
