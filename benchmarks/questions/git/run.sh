#!/usr/bin/env bash
# The git development set, measured: index the HTML pages of Debian's git-doc (git's own
# documentation: the man pages, the user manual, the guides, howto/ and technical/, built by
# AsciiDoc and DocBook) into a temporary index, turn the files' gold URLs into that index's ids,
# and run `citeline eval citations` on both files (../eval_site.sh does the steps). Only the
# .html pages are indexed: git-doc ships each page's AsciiDoc source beside it as .txt (which
# a folder ingest passes over), plus 53 AsciiDoc fragments that the pages include
# (diff-options.txt, config.txt...), which it indexes as plain text, each a second copy of
# part of a page (README.md beside this script says more). Extra arguments go to both evals (say
# `--model openai:<model>`). Reports land in $OUT (default: a fresh folder under /tmp,
# printed at the end).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
SITE="${SITE:-/usr/share/doc/git-doc}"
OUT="${OUT:-$(mktemp -d /tmp/devset-git.XXXXXX)}"
if [ ! -f "$SITE/index.html" ]; then
  echo "No git documentation at $SITE: install Debian's git-doc (apt-get install git-doc) or set SITE." >&2
  exit 2
fi
pages="$(mktemp -d /tmp/devset-git-pages.XXXXXX)"
trap 'rm -rf "$pages"' EXIT
# The pages only, under the same relative paths, so each keeps its address under the base URL;
# index.html is a link to git.html in git-doc, kept a link (the site serves git(1) at both).
(cd "$SITE" && find . -name '*.html' \( -type f -o -type l \) -print0 | xargs -0 cp -P --parents -t "$pages")
"$here/../eval_site.sh" "$pages" "https://mirrors.edge.kernel.org/pub/software/scm/git/docs/" git-doc "$OUT" \
  "$here/git-docs.jsonl" "$here/git-docs-followups.jsonl" -- "$@"
