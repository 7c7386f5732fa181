#!/usr/bin/env bash
# The Node.js development set, measured: prepare.sh copies the module pages of Debian's
# nodejs-doc (Node.js 18.20.4's API documentation, built by Node's tools/doc) into the
# collections' cache, leaving out all.html, and ../eval_site.sh indexes them at the published
# address, turns the files' gold URLs into that index's ids and runs `citeline eval citations`
# on the questions, the follow-ups and the off-topic questions. Extra arguments go to every
# eval (say `--model openai:<model>`). Reports land in $OUT (default: a fresh folder under
# /tmp, printed at the end). SITE (the api folder) and CITELINE_COLLECTIONS_CACHE reach
# prepare.sh. README.md beside this script says more.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
OUT="${OUT:-$(mktemp -d /tmp/devset-nodejs.XXXXXX)}"
pages="$("$here/prepare.sh" | tail -n 1)"
exec "$here/../eval_site.sh" "$pages" "https://nodejs.org/docs/v18.20.4/api/" nodejs-doc "$OUT" \
  "$here/nodejs-docs.jsonl" "$here/nodejs-docs-followups.jsonl" \
  "$here/nodejs-off-topic.jsonl" -- "$@"
