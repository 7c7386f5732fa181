#!/usr/bin/env bash
# The R manuals development set, measured: index Debian's r-doc-html pages (R 4.2.2's seven
# manuals, GNU Texinfo HTML, one page per manual) into a temporary index, turn the files' gold
# URLs into that index's ids, and run `citeline eval citations` on the questions, the follow-ups
# and the off-topic questions (../eval_site.sh does the steps). Extra arguments go to every eval
# (say `--model openai:<model>`). Reports land in $OUT (default: a fresh folder under /tmp,
# printed at the end). See README.md beside this script.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
SITE="${SITE:-/usr/share/R/doc/manual}"
OUT="${OUT:-$(mktemp -d /tmp/devset-r-manuals.XXXXXX)}"
exec "$here/../eval_site.sh" "$SITE" "https://cran.r-project.org/doc/manuals/r-release/" r-doc-html "$OUT" \
  "$here/r-manuals-docs.jsonl" "$here/r-manuals-docs-followups.jsonl" "$here/r-manuals-off-topic.jsonl" -- "$@"
