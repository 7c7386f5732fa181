#!/usr/bin/env bash
# The git development set, measured: index the HTML pages of Debian's git-doc (git's own
# documentation: the man pages, the user manual, the guides, howto/ and technical/, built by
# AsciiDoc and DocBook), as prepare.sh beside this script copies them, into a temporary index,
# turn the files' gold URLs into that index's ids, and run `citeline eval citations` on both
# files (../eval_site.sh does the steps). Extra arguments go to both evals (say
# `--model openai:<model>`). Reports land in $OUT (default: a fresh folder under /tmp, printed
# at the end).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
OUT="${OUT:-$(mktemp -d /tmp/devset-git.XXXXXX)}"
pages="$(cd "$here/../../.." && "$here/prepare.sh" | tail -n 1)"
"$here/../eval_site.sh" "$pages" "https://mirrors.edge.kernel.org/pub/software/scm/git/docs/" git-doc "$OUT" \
  "$here/git-docs.jsonl" "$here/git-docs-followups.jsonl" -- "$@"
