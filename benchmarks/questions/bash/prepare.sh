#!/usr/bin/env bash
# The Bash Reference Manual as a folder to ingest: the whole manual on one page (Bash 5.2,
# GNU Texinfo 6.8's HTML, not split), from Debian's bash-doc, copied as bash.html into
# ${CITELINE_COLLECTIONS_CACHE:-$HOME/.cache/citeline-collections}/bash-5.2, whose path is the
# last line printed, once (../site_pages.sh). Only bashref.html is copied, under the name gnu.org
# publishes the one-page manual by (https://www.gnu.org/software/bash/manual/bash.html);
# bash-doc's bash.html (the man page, another document of the same text), the PDFs and the
# examples are left out. README.md beside this script says why. SITE (default
# /usr/share/doc/bash-doc) can be set in the environment.
set -euo pipefail
SITE="${SITE:-/usr/share/doc/bash-doc}"
if [ ! -f "$SITE/bashref.html" ]; then
  echo "No Bash Reference Manual at $SITE: install Debian's bash-doc (apt-get install bash-doc) or set SITE." >&2
  exit 2
fi
exec "$(dirname "$0")/../site_pages.sh" "$SITE" bash-5.2 \
  --top-level --pages bashref.html --rename bashref.html bash.html
