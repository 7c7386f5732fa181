#!/usr/bin/env bash
# The Rust book development set, measured: prepare.sh copies the chapter pages of Debian's
# rust-doc book (mdBook) into the collections' cache, and ../eval_site.sh indexes them at the
# book's published address, turns the files' gold URLs into that index's ids and runs
# `citeline eval citations` on the questions, the follow-ups and the off-topic questions.
# Extra arguments go to every eval (say `--model openai:<model>`). Reports land in $OUT
# (default: a fresh folder under /tmp, printed at the end). SITE (the book's folder) and
# CITELINE_COLLECTIONS_CACHE reach prepare.sh. README.md beside this script says more.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
OUT="${OUT:-$(mktemp -d /tmp/devset-rust-book.XXXXXX)}"
pages="$("$here/prepare.sh" | tail -n 1)"
exec "$here/../eval_site.sh" "$pages" "https://doc.rust-lang.org/1.63.0/book/" rust-doc "$OUT" \
  "$here/rust-book-docs.jsonl" "$here/rust-book-docs-followups.jsonl" \
  "$here/rust-book-off-topic.jsonl" -- "$@"
