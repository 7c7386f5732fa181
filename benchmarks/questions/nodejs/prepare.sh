#!/usr/bin/env bash
# The Node.js 18 API pages as a folder to ingest: the one-module-a-page HTML of Debian's
# nodejs-doc (Node.js 18.20.4's doc/api, built by Node's own tools/doc generator), copied into
# ${CITELINE_COLLECTIONS_CACHE:-$HOME/.cache/citeline-collections}/nodejs-18.20.4, whose path
# is the last line printed. Every *.html page of the folder is copied but all.html, which the
# generator makes by pasting every module page into one ("View on single page"): ingested
# beside them it holds every section twice, under a second address no gold names. The
# Markdown sources (*.md.gz, index.md), the JSON (*.json.gz) and assets/ are not pages of
# the site. README.md beside this script says more. SITE (default /usr/share/doc/nodejs/api)
# can be set in the environment.
set -euo pipefail
SITE="${SITE:-/usr/share/doc/nodejs/api}"
cache="${CITELINE_COLLECTIONS_CACHE:-$HOME/.cache/citeline-collections}"
pages="$cache/nodejs-18.20.4"
if [ ! -f "$SITE/fs.html" ]; then
  echo "No Node.js API pages at $SITE: install Debian's nodejs-doc (apt-get install nodejs-doc) or set SITE." >&2
  exit 2
fi
# NodeSource's nodejs package installs Node 20's pages at the same path (it provides and
# conflicts with nodejs-doc): the gold names Node 18.20.4's sections.
if ! grep -q '<meta name="nodejs.org:node-version" content="v18.20.4">' "$SITE/fs.html"; then
  echo "The pages at $SITE are not Node.js 18.20.4's: install Debian's nodejs-doc or set SITE." >&2
  exit 2
fi
rm -rf "$pages"
mkdir -p "$pages"
for page in "$SITE"/*.html; do
  if [ "$(basename "$page")" != all.html ]; then
    cp "$page" "$pages/"
  fi
done
echo "$pages"
