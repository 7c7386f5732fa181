#!/usr/bin/env bash
# MkDocs 1.4.2's documentation as a folder to ingest, laid out as www.mkdocs.org publishes it.
# Debian's mkdocs-doc builds the site with use_directory_urls off (user-guide/configuration.html),
# while the published site, built with it on, serves that page as user-guide/configuration/
# (its file user-guide/configuration/index.html). So each page X.html is copied to
# X/index.html (an index.html stays where it is) into
# ${CITELINE_COLLECTIONS_CACHE:-$HOME/.cache/citeline-collections}/mkdocs-1.4.2, whose path is the
# last line printed; the copy is made once (../site_pages.sh). Only documentation pages are
# copied: not 404.html, not the three redirect stubs that ask search engines to leave them out
# (<meta name="robots" content="noindex">, "Redirecting..."), and none of the search index,
# sitemap, message catalogue or assets. README.md beside this script says more. SITE (default
# /usr/share/doc/mkdocs/html) can be set.
set -euo pipefail
SITE="${SITE:-/usr/share/doc/mkdocs/html}"
if [ ! -f "$SITE/user-guide/configuration.html" ]; then
  echo "No MkDocs documentation at $SITE: install Debian's mkdocs-doc (apt-get install mkdocs-doc) or set SITE." >&2
  exit 2
fi
exec "$(dirname "$0")/../site_pages.sh" "$SITE" mkdocs-1.4.2 \
  --leave-out 404.html --without-noindex --directory-urls
