#!/usr/bin/env bash
# The schemathesis-md development set, measured: fetch Schemathesis 4.32.5's sdist (prepare.sh:
# PyPI, checked by sha256, unpacked once into the collections cache), index its Markdown sources
# (docs/, as a site owner points `citeline ingest` at the repository's docs folder) into a
# temporary index under the published address, turn the files' gold URLs into that index's ids,
# and run `citeline eval citations` on the questions, the follow-ups and the off-topic questions
# (../eval_site.sh does the steps). Extra arguments go to every eval (say
# `--model openai:<model>`). Reports land in $OUT (default: a fresh folder under /tmp, printed
# at the end). README.md beside this script says what today's ingest misses: until it reads
# docs/migration.md (a link to ../MIGRATION.md), ../gold_ids.py stops on its two addresses.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
SITE="${SITE:-$("$here/prepare.sh" | tail -n 1)}"
OUT="${OUT:-$(mktemp -d /tmp/devset-schemathesis-md.XXXXXX)}"
exec "$here/../eval_site.sh" "$SITE" "https://schemathesis.readthedocs.io/en/stable/" "schemathesis==4.32.5 (PyPI sdist, schemathesis-md/prepare.sh)" "$OUT" \
  "$here/schemathesis-md-docs.jsonl" "$here/schemathesis-md-docs-followups.jsonl" "$here/schemathesis-md-off-topic.jsonl" -- "$@"
