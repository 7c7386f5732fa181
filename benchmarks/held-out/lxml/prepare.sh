#!/usr/bin/env bash
# The held-out lxml collection's pages: lxml 4.9.2's documentation from Debian's python-lxml-doc
# (HTML written from reStructuredText by lxml's own docutils script, doc/mkhtml.py), copied into
# ${CITELINE_COLLECTIONS_CACHE:-$HOME/.cache/citeline-collections}/lxml-4.9, whose path is the
# last line printed. Only the 26 pages at the top of the package's folder are copied (the
# tutorial, the guides, the FAQ, the changelog, the site map). Left out: apidoc/, the generated
# API reference (Sphinx autodoc pages of every module, their _modules/ source pages, _sources/,
# genindex.html and search.html), another kind of site built by another generator. README.md
# beside this script says why. SITE (default /usr/share/doc/python-lxml/html) can be set in
# the environment.
set -euo pipefail
SITE="${SITE:-/usr/share/doc/python-lxml/html}"
cache="${CITELINE_COLLECTIONS_CACHE:-$HOME/.cache/citeline-collections}"
pages="$cache/lxml-4.9"
if [ ! -f "$SITE/tutorial.html" ] || [ ! -f "$SITE/index.html" ]; then
  echo "No lxml documentation at $SITE: install Debian's python-lxml-doc (apt-get install python-lxml-doc) or set SITE." >&2
  exit 2
fi
rm -rf "$pages"
mkdir -p "$pages"
for page in "$SITE"/*.html; do
  cp -L "$page" "$pages/"
done
echo "$pages"
