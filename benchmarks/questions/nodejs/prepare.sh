#!/usr/bin/env bash
# The folder to ingest for the nodejs collection: the module pages of Debian's nodejs-doc
# 18.20.4 (Node.js's API documentation, built by Node's own tools/doc), without all.html, which
# repeats every page in one (3,954 sections twice). The package is unpacked, not installed:
# NodeSource's nodejs, which tests/js run on, conflicts with it and puts Node 20's pages at its
# path. `apt-get download` fetches the pinned version once into the collections' cache (after
# `apt-get update`); SITE names a folder of 18.20.4's pages instead. The pages are copied once
# (../site_pages.sh): a complete copy is printed without fetching. Run from the repository root
# (collection.toml names it); prints the folder on its last line of stdout. Exit status 2 with a
# sentence when the package cannot be fetched or the pages are not 18.20.4's.
set -euo pipefail
VERSION="18.20.4+dfsg-1~deb12u3"
site_pages="$(dirname "$0")/../site_pages.sh"
if "$site_pages" --complete nodejs-18.20.4; then
  exit 0
fi
cache="${CITELINE_COLLECTIONS_CACHE:-$HOME/.cache/citeline-collections}"
mkdir -p "$cache"
work="$(mktemp -d "$cache/.nodejs-doc.XXXXXX")"
trap 'rm -rf "$work"' EXIT
if [ -z "${SITE:-}" ]; then
  if ! (cd "$work" && apt-get download -qq "nodejs-doc=$VERSION" >/dev/null 2>&1); then
    echo "Could not download Debian's nodejs-doc $VERSION: run apt-get update (the package comes from bookworm-security), or set SITE to a folder of its api pages." >&2
    exit 2
  fi
  dpkg-deb -x "$work"/nodejs-doc_*.deb "$work/unpacked"
  SITE="$work/unpacked/usr/share/doc/nodejs/api"
fi
if ! grep -q '<meta name="nodejs.org:node-version" content="v18.20.4">' "$SITE/fs.html" 2>/dev/null; then
  echo "The pages at $SITE are not Node.js 18.20.4's: set SITE to nodejs-doc $VERSION's api folder." >&2
  exit 2
fi
# Not exec: the trap removes the fetched package once the pages are copied.
"$site_pages" "$SITE" nodejs-18.20.4 --top-level --leave-out all.html
