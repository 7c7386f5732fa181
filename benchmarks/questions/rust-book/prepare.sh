#!/usr/bin/env bash
# The Rust book's pages as a folder to ingest: the chapters of "The Rust Programming
# Language" (Rust 1.63), from Debian's rust-doc, copied into
# ${CITELINE_COLLECTIONS_CACHE:-$HOME/.cache/citeline-collections}/rust-book-1.63.0, whose path is
# the last line printed, once (../site_pages.sh). Only the book folder's own top-level pages are
# copied, and of those only the ones that do not ask search engines to leave them out (<meta
# name="robots" content="noindex">): mdBook marks so print.html, which repeats every chapter on
# one page, and rustdoc the 59 pages left for links into the retired first edition (57 that say
# "this is an old link" and point to a chapter, README.html and SUMMARY.html that list the
# editions). The subfolders first-edition/, second-edition/ and 2018-edition/ are left out: every
# page in them says that edition is no longer distributed. README.md beside this script says why.
# SITE (default /usr/share/doc/rust-doc/html/book) can be set in the environment.
set -euo pipefail
SITE="${SITE:-/usr/share/doc/rust-doc/html/book}"
if [ ! -f "$SITE/ch04-01-what-is-ownership.html" ]; then
  echo "No Rust book at $SITE: install Debian's rust-doc (apt-get install rust-doc) or set SITE." >&2
  exit 2
fi
exec "$(dirname "$0")/../site_pages.sh" "$SITE" rust-book-1.63.0 --top-level --without-noindex
