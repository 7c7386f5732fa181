#!/usr/bin/env bash
# The Docutils development collection's pages: Docutils 0.19's documentation, from Debian's
# docutils-doc, copied with their folders into
# ${CITELINE_COLLECTIONS_CACHE:-$HOME/.cache/citeline-collections}/docutils-0.19, whose path is
# the last line printed. The package installs each page's reStructuredText source (.txt) beside
# its HTML (.html); only the HTML pages are copied, so that every page is read once, as the
# site serves it. Left out as well: docs/header.html and docs/header2.html (the menu bar that
# every page includes, "not a standalone document") and, at the package's top, math.html,
# mwe-test.html and manpage-URUE.html (test documents of Docutils' own test suite that Debian's
# build left there: no page links to them). Styles and images are not pages and are not
# copied. README.md beside this script says why.
# SITE (default /usr/share/doc/docutils-doc) can be set in the environment.
set -euo pipefail
SITE="${SITE:-/usr/share/doc/docutils-doc}"
cache="${CITELINE_COLLECTIONS_CACHE:-$HOME/.cache/citeline-collections}"
pages="$cache/docutils-0.19"
if [ ! -f "$SITE/docs/ref/rst/directives.html" ]; then
  echo "No Docutils documentation at $SITE: install Debian's docutils-doc (apt-get install docutils-doc) or set SITE." >&2
  exit 2
fi
rm -rf "$pages"
mkdir -p "$pages"
(cd "$SITE" && find . -name '*.html' -type f -print0 | sort -z) |
  while IFS= read -r -d '' page; do
    case "$page" in
      ./docs/header.html | ./docs/header2.html | ./math.html | ./mwe-test.html | ./manpage-URUE.html) continue ;;
    esac
    mkdir -p "$pages/$(dirname "$page")"
    cp "$SITE/$page" "$pages/$page"
  done
echo "$pages"
