#!/usr/bin/env bash
# The starlette-md held-out collection's sources: download Starlette 1.10.0's sdist from PyPI
# (it carries the docs folder beside mkdocs.yml), check its sha256, unpack it once into the
# collections cache, and print the docs folder to ingest on the last line.
# Nothing of the sdist is committed (README.md beside this script says why and what it holds).
#   CITELINE_COLLECTIONS_CACHE  where sdists are kept (default ~/.cache/citeline-collections)
#   PIP                         the pip command to download with (default: python3 -m pip)
# Exit status 2 with a sentence when PyPI cannot be reached or the download is not the file
# pinned here.
set -euo pipefail
NAME=starlette
VERSION=1.10.0
SHA256=b8399098d4c1e3522734f7235dc79b1fc967f96cf139c81e0fa30479e0685f9b
cache="${CITELINE_COLLECTIONS_CACHE:-$HOME/.cache/citeline-collections}"
root="$cache/$NAME-$VERSION"
sdist="$cache/$NAME-$VERSION.tar.gz"
mkdir -p "$cache"

if [ ! -f "$root/.unpacked" ]; then
  if [ ! -f "$sdist" ]; then
    download="$(mktemp -d "$cache/.download.XXXXXX")"
    trap 'rm -rf "$download"' EXIT
    # --no-binary :all: takes the sdist, not a wheel (a wheel holds no docs); --no-deps keeps
    # it to this one file.
    if ! ${PIP:-python3 -m pip} download --quiet --no-deps --no-binary :all: \
        --dest "$download" "$NAME==$VERSION" >&2; then
      echo "Could not download $NAME==$VERSION's sdist from PyPI: check the network (or pip's index settings) and run this again." >&2
      exit 2
    fi
    mv "$download/$NAME-$VERSION.tar.gz" "$sdist"
  fi
  actual="$(sha256sum "$sdist" | cut -d' ' -f1)"
  if [ "$actual" != "$SHA256" ]; then
    rm -f "$sdist"
    echo "$NAME-$VERSION.tar.gz has sha256 $actual, not the pinned $SHA256; it was removed, so run this again to download it afresh." >&2
    exit 2
  fi
  rm -rf "$root"
  tar -xzf "$sdist" -C "$cache"
  touch "$root/.unpacked"
fi
echo "$root/docs"
