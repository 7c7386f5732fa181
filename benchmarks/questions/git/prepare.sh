#!/usr/bin/env bash
# The folder to ingest for the git collection: the HTML pages of Debian's git-doc alone, under
# their relative paths, so each keeps its address under the base URL. git-doc ships each page's
# AsciiDoc source beside it (git-reset.txt beside git-reset.html) and 53 AsciiDoc fragments the
# pages include (diff-options.txt, config.txt...), which a folder ingest would index as plain
# text, each a second copy of part of a page (README.md says more). index.html is a link to
# git.html in git-doc, kept a link (the site serves git(1) at both). Copied once per version
# of git-doc (../site_pages.sh). Run from the repository root (collection.toml names it); prints
# the folder on its last line of stdout.
set -euo pipefail
SITE="${SITE:-/usr/share/doc/git-doc}"
if [ ! -f "$SITE/index.html" ]; then
  echo "No git documentation at $SITE: install Debian's git-doc (apt-get install git-doc) or set SITE." >&2
  exit 2
fi
version="$(dpkg-query -W -f='${Version}' git-doc 2>/dev/null || echo unknown)"
exec "$(dirname "$0")/../site_pages.sh" "$SITE" "git-doc-pages-${version//[^A-Za-z0-9.+-]/_}" \
  --keep-links
