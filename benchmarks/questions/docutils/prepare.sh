#!/usr/bin/env bash
# The Docutils development collection's pages: Docutils 0.19's documentation, from Debian's
# docutils-doc, copied with their folders into
# ${CITELINE_COLLECTIONS_CACHE:-$HOME/.cache/citeline-collections}/docutils-0.19, whose path is
# the last line printed, once (../site_pages.sh). The package installs each page's
# reStructuredText source (.txt) beside its HTML (.html); only the HTML pages are copied, so that
# every page is read once, as the site serves it. Left out as well: docs/header.html and
# docs/header2.html (the menu bar that every page includes, "not a standalone document") and, at
# the package's top, math.html, mwe-test.html and manpage-URUE.html (test documents of Docutils'
# own test suite that Debian's build left there: no page links to them). Styles and images are not
# pages and are not copied. README.md beside this script says why. SITE (default
# /usr/share/doc/docutils-doc) can be set in the environment.
set -euo pipefail
SITE="${SITE:-/usr/share/doc/docutils-doc}"
if [ ! -f "$SITE/docs/ref/rst/directives.html" ]; then
  echo "No Docutils documentation at $SITE: install Debian's docutils-doc (apt-get install docutils-doc) or set SITE." >&2
  exit 2
fi
exec "$(dirname "$0")/../site_pages.sh" "$SITE" docutils-0.19 \
  --leave-out docs/header.html --leave-out docs/header2.html \
  --leave-out math.html --leave-out mwe-test.html --leave-out manpage-URUE.html
