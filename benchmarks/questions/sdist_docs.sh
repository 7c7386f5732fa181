#!/usr/bin/env bash
# A collection's Markdown sources from a project's PyPI sdist: download NAME==VERSION's sdist
# (pip, --no-binary :all:), check it against SHA256, unpack it once into the collections
# cache, and print its docs folder, the folder `citeline ingest` reads, on the last line.
# The prepare.sh of each such collection (typer-md, schemathesis-md, held-out/starlette-md)
# calls it; nothing of an sdist is committed.
#   usage: sdist_docs.sh NAME VERSION SHA256
#   CITELINE_COLLECTIONS_CACHE  where sdists are kept (default ~/.cache/citeline-collections)
#   PIP                         the pip command to download with (default: python3 -m pip)
# Exit status 2 with a sentence when PyPI cannot be reached or the download is not the file
# pinned; 64 when called without the three arguments.
set -euo pipefail
if [ "$#" -ne 3 ]; then
  echo "usage: sdist_docs.sh NAME VERSION SHA256" >&2
  exit 64
fi
NAME="$1"
VERSION="$2"
SHA256="$3"
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
