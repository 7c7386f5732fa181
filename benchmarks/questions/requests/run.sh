#!/usr/bin/env bash
# The Requests development set, measured: index Debian's python-requests-doc site (Requests
# 2.28.1's documentation, built by Sphinx) into a temporary index, turn the files' gold URLs into
# that index's ids, and run `citeline eval citations` on the questions, the follow-ups and the
# off-topic questions (../eval_site.sh does the steps). Extra arguments go to every eval (say
# `--model openai:<model>`). Reports land in $OUT (default: a fresh folder under /tmp, printed at
# the end). See README.md beside this script.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
SITE="${SITE:-/usr/share/doc/python-requests-doc/html}"
OUT="${OUT:-$(mktemp -d /tmp/devset-requests.XXXXXX)}"
exec "$here/../eval_site.sh" "$SITE" "https://requests.readthedocs.io/en/v2.28.1/" python-requests-doc "$OUT" \
  "$here/requests-docs.jsonl" "$here/requests-docs-followups.jsonl" "$here/requests-off-topic.jsonl" -- "$@"
