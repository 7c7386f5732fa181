#!/usr/bin/env bash
# The held-out gettext collection's pages: the GNU gettext utilities manual for gettext 0.21,
# from Debian's gettext-doc (texi2html 1.78a's HTML, one page per chapter), copied into
# ${CITELINE_COLLECTIONS_CACHE:-$HOME/.cache/citeline-collections}/gettext-0.21, whose path is
# the last line printed. Only the manual's own pages are copied: gettext_1.html to
# gettext_30.html (the chapters, the appendices and the indexes), gettext_toc.html,
# gettext_fot.html and gettext_abt.html. Left out from the package's folder: index.html (a
# link to gettext_toc.html), the manual pages of the programs and functions (msgfmt.1.html …,
# another text of the manual's "Invoking" sections), FAQ.html and tutorial.html (published
# elsewhere than the manual), the C#, Java and libasprintf API pages and the examples.
# README.md beside this script says why. SITE (default /usr/share/doc/gettext) can be set in
# the environment. The copy is made once (benchmarks/questions/site_pages.sh).
set -euo pipefail
SITE="${SITE:-/usr/share/doc/gettext}"
if [ ! -f "$SITE/gettext_toc.html" ] || [ ! -f "$SITE/gettext_1.html" ]; then
  echo "No gettext manual at $SITE: install Debian's gettext-doc (apt-get install gettext-doc) or set SITE." >&2
  exit 2
fi
exec "$(dirname "$0")/../../questions/site_pages.sh" "$SITE" gettext-0.21 \
  --top-level --pages 'gettext_*.html'
