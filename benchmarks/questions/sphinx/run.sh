#!/usr/bin/env bash
# The Sphinx development set, measured: index Debian's sphinx-doc site (Sphinx 5.3's own
# documentation, built by Sphinx with its own sphinx13 theme) into a temporary index, turn the
# files' gold URLs into that index's ids, and run `citeline eval citations` on the questions,
# the follow-ups and the off-topic questions (../eval_site.sh does the steps). Extra arguments
# go to every eval (say `--model openai:<model>`). Reports land in $OUT (default: a fresh
# folder under /tmp, printed at the end). See README.md beside this script.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
SITE="${SITE:-/usr/share/doc/sphinx-doc/html}"
OUT="${OUT:-$(mktemp -d /tmp/devset-sphinx.XXXXXX)}"
exec "$here/../eval_site.sh" "$SITE" "https://www.sphinx-doc.org/en/5.x/" sphinx-doc "$OUT" \
  "$here/sphinx-docs.jsonl" "$here/sphinx-docs-followups.jsonl" "$here/sphinx-off-topic.jsonl" -- "$@"
