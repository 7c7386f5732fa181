#!/usr/bin/env bash
# The folder to ingest for the exim collection: the HTML pages of Debian's exim4-doc-html
# (Exim 4.96's specification and its filter document, built by Exim's own xfpt/XSLT tool
# chain, one chapter a page) without their numbered aliases. The package ships each chapter
# twice: as ch-<name>.html, the file the pages link to and the published site's address, and
# as chNN.html, a symbolic link to it (65 of the specification, filter_ch01.html to
# filter_ch03.html for the filter document). A folder ingest reads a link like a file, so each
# chapter would be indexed twice under two addresses (README.md says more); only the plain
# files are copied, under their own names. Run from the repository root (collection.toml
# names it); prints the folder on its last line of stdout. SITE (default
# /usr/share/doc/exim4-doc-html/spec_html) and CITELINE_COLLECTIONS_CACHE can be set.
set -euo pipefail
SITE="${SITE:-/usr/share/doc/exim4-doc-html/spec_html}"
if [ ! -f "$SITE/ch-introduction.html" ]; then
  echo "No Exim specification at $SITE: install Debian's exim4-doc-html (apt-get install exim4-doc-html) or set SITE." >&2
  exit 2
fi
cache="${CITELINE_COLLECTIONS_CACHE:-$HOME/.cache/citeline-collections}"
version="$(dpkg-query -W -f='${Version}' exim4-doc-html 2>/dev/null || echo unknown)"
pages="$cache/exim4-doc-html-pages-${version//[^A-Za-z0-9.+-]/_}"
if [ ! -f "$pages/.complete" ]; then
  rm -rf "$pages"
  mkdir -p "$pages"
  find "$SITE" -maxdepth 1 -type f -name '*.html' -exec cp -t "$pages" {} +
  touch "$pages/.complete"
fi
echo "$pages"
