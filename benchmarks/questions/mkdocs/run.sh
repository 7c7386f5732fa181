#!/usr/bin/env bash
# The MkDocs development set, measured: prepare.sh copies the documentation pages of Debian's
# mkdocs-doc into the collections' cache, laid out as www.mkdocs.org publishes them, and
# ../eval_site.sh indexes them at that address, turns the files' gold URLs into that index's ids
# and runs `citeline eval citations` on the questions, the follow-ups and the off-topic
# questions. Extra arguments go to every eval (say `--model openai:<model>`). Reports land in
# $OUT (default: a fresh folder under /tmp, printed at the end). SITE (the built site's folder)
# and CITELINE_COLLECTIONS_CACHE reach prepare.sh. README.md beside this script says more.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
OUT="${OUT:-$(mktemp -d /tmp/devset-mkdocs.XXXXXX)}"
pages="$("$here/prepare.sh" | tail -n 1)"
exec "$here/../eval_site.sh" "$pages" "https://www.mkdocs.org/" mkdocs-doc "$OUT" \
  "$here/mkdocs-docs.jsonl" "$here/mkdocs-docs-followups.jsonl" \
  "$here/mkdocs-off-topic.jsonl" -- "$@"
