#!/usr/bin/env bash
# The PostgreSQL development set, measured: index Debian's postgresql-doc-15 manual as a built
# site into a temporary index, turn the files' gold URLs into that index's ids, and run
# `citeline eval citations` on both files (../eval_site.sh does the steps). Extra arguments go
# to both evals (say `--model openai:<model>`). Reports land in $OUT (default: a fresh folder
# under /tmp, printed at the end). See README.md beside this script; the leave-one-collection-out
# figures come from ../crossval.py, which reads collection.toml beside it.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
SITE="${SITE:-/usr/share/doc/postgresql-doc-15/html}"
OUT="${OUT:-$(mktemp -d /tmp/devset-postgresql.XXXXXX)}"
exec "$here/../eval_site.sh" "$SITE" "https://www.postgresql.org/docs/15/" postgresql-doc-15 "$OUT" \
  "$here/postgresql-docs.jsonl" "$here/postgresql-docs-followups.jsonl" -- "$@"
