#!/usr/bin/env bash
# The Debian Reference development set, measured: ../eval_site.sh indexes the pages of Debian's
# debian-reference-en (the Debian Reference 2.100 in English, DocBook XSL HTML, a chapter a page)
# at the address www.debian.org publishes them under, turns the files' gold URLs into that
# index's ids and runs `citeline eval citations` on the questions, the follow-ups and the
# off-topic questions. Extra arguments go to every eval (say `--model openai:<model>`). Reports
# land in $OUT (default: a fresh folder under /tmp, printed at the end). SITE names another copy
# of the pages. README.md beside this script says more (today it stops at the gold addresses).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
OUT="${OUT:-$(mktemp -d /tmp/devset-debian-reference.XXXXXX)}"
SITE="${SITE:-/usr/share/debian-reference}"
exec "$here/../eval_site.sh" "$SITE" "https://www.debian.org/doc/manuals/debian-reference/" \
  debian-reference-en "$OUT" \
  "$here/debian-reference-docs.jsonl" "$here/debian-reference-docs-followups.jsonl" \
  "$here/debian-reference-off-topic.jsonl" -- "$@"
