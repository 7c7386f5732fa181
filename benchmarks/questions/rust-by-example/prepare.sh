#!/usr/bin/env bash
# Rust by Example's pages as a folder to ingest: the chapter pages of "Rust By Example" (Rust
# 1.63), from Debian's rust-doc, copied with their folders into
# ${CITELINE_COLLECTIONS_CACHE:-$HOME/.cache/citeline-collections}/rust-by-example-1.63.0, whose
# path is the last line printed, once (../site_pages.sh). Every HTML page is copied but those that
# ask search engines to leave them out (<meta name="robots" content="noindex">): mdBook marks so
# print.html, which repeats every chapter on one page under the chapters' heading ids. Scripts,
# styles, fonts and the search index are not pages and are not copied. README.md beside this
# script says why. SITE (default /usr/share/doc/rust-doc/html/rust-by-example) can be set in the
# environment.
set -euo pipefail
SITE="${SITE:-/usr/share/doc/rust-doc/html/rust-by-example}"
if [ ! -f "$SITE/scope/borrow.html" ]; then
  echo "No Rust by Example at $SITE: install Debian's rust-doc (apt-get install rust-doc) or set SITE." >&2
  exit 2
fi
exec "$(dirname "$0")/../site_pages.sh" "$SITE" rust-by-example-1.63.0 --without-noindex
