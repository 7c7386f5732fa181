#!/usr/bin/env bash
# The Exim development set, measured: ../eval_site.sh indexes the pages of Debian's
# exim4-doc-html (Exim 4.96's specification and filter document, built by xfpt) at the
# published address, turns the files' gold URLs into that index's ids and runs `citeline eval
# citations` on the questions, the follow-ups and the off-topic questions. Extra arguments go
# to every eval (say `--model openai:<model>`). Reports land in $OUT (default: a fresh folder
# under /tmp, printed at the end). SITE names another copy of the pages.
# README.md beside this script says more.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
OUT="${OUT:-$(mktemp -d /tmp/devset-exim.XXXXXX)}"
SITE="${SITE:-/usr/share/doc/exim4-doc-html/spec_html}"
exec "$here/../eval_site.sh" "$SITE" "https://www.exim.org/exim-html-4.96/doc/html/spec_html/" \
  exim4-doc-html "$OUT" \
  "$here/exim-docs.jsonl" "$here/exim-docs-followups.jsonl" "$here/exim-off-topic.jsonl" -- "$@"
