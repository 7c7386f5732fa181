#!/usr/bin/env bash
# The pytest development set, measured: index Debian's python-pytest-doc site (pytest 7.2's
# documentation, built by Sphinx) into a temporary index, turn the files' gold URLs into that
# index's ids, and run `citeline eval citations` on the questions, the follow-ups and the
# off-topic questions (../eval_site.sh does the steps). Extra arguments go to every eval (say
# `--model openai:<model>`). Reports land in $OUT (default: a fresh folder under /tmp, printed at
# the end). See README.md beside this script.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
SITE="${SITE:-/usr/share/doc/python-pytest-doc/html}"
OUT="${OUT:-$(mktemp -d /tmp/devset-pytest.XXXXXX)}"
exec "$here/../eval_site.sh" "$SITE" "https://docs.pytest.org/en/7.2.x/" python-pytest-doc "$OUT" \
  "$here/pytest-docs.jsonl" "$here/pytest-docs-followups.jsonl" "$here/pytest-off-topic.jsonl" -- "$@"
