#!/usr/bin/env bash
# A collection's pages copied out of an installed site into the collections cache, once: the
# prepare.sh of each collection that ingests some of a site's pages and not the rest (rust-book,
# rust-by-example, mkdocs, git, nodejs, bash, docutils, cargo-book, gettext) calls it with what
# to take and what to leave out, and it prints the copy's folder on its last line, the folder
# `citeline ingest` reads. FOLDER names the copy and carries the version copied (the package's,
# or the rustup release's): the copy is made when FOLDER.complete, beside it, is missing, and
# that marker is written after the last page, so a copy cut short is made again. It is beside
# the folder, not in it, so the folder holds the pages alone. A site changed under the same
# FOLDER is not copied again: remove FOLDER.complete to copy it afresh.
#   usage: site_pages.sh SITE FOLDER [OPTION]...
#          site_pages.sh --complete FOLDER  (prints the folder when its copy is complete, else
#                                           exits 1: for a site that must be fetched first)
#   --pages GLOB         the file names to take (default *.html), files or links to files
#   --top-level          only the pages in SITE itself, not in its subfolders
#   --leave-out PATH     not the page at PATH, relative to SITE (repeatable)
#   --without-noindex    not the pages that ask search engines to leave them out
#                        (<meta name="robots" content="noindex">)
#   --rename PATH NEW    the page at PATH copied as NEW (relative to the folder)
#   --directory-urls     each page X.html copied as X/index.html (an index.html stays), as a
#                        site built with directory URLs serves it
#   --keep-links         a link copied as the link (default: as the page it names)
#   CITELINE_COLLECTIONS_CACHE  where copies are kept (default ~/.cache/citeline-collections)
# Exit status 64 on a usage error, 2 when SITE is no folder. The caller checks that SITE is the
# site it means (its own sentence, exit 2) before calling.
set -euo pipefail
usage() {
  echo "usage: site_pages.sh SITE FOLDER [OPTION]... | site_pages.sh --complete FOLDER" >&2
  exit 64
}
cache="${CITELINE_COLLECTIONS_CACHE:-$HOME/.cache/citeline-collections}"

if [ "${1:-}" = --complete ]; then
  [ "$#" -eq 2 ] || usage
  if [ -f "$cache/$2.complete" ] && [ -d "$cache/$2" ]; then
    echo "$cache/$2"
    exit 0
  fi
  exit 1
fi

[ "$#" -ge 2 ] || usage
SITE="$1"
FOLDER="$2"
shift 2
# A name, not a path: the folder and its marker stay inside the cache.
case "$FOLDER" in
  "" | */* | . | ..) usage ;;
esac
pages="$cache/$FOLDER"
marker="$cache/$FOLDER.complete"
glob='*.html'
depth=()
leave_out=()
noindex=""
directory_urls=""
copy=(cp -L)
declare -A renamed=()
while [ "$#" -gt 0 ]; do
  case "$1" in
    --pages) [ "$#" -ge 2 ] || usage; glob="$2"; shift 2 ;;
    --top-level) depth=(-maxdepth 1); shift ;;
    --leave-out) [ "$#" -ge 2 ] || usage; leave_out+=("$2"); shift 2 ;;
    --without-noindex) noindex=1; shift ;;
    --rename) [ "$#" -ge 3 ] || usage; renamed["$2"]="$3"; shift 3 ;;
    --directory-urls) directory_urls=1; shift ;;
    --keep-links) copy=(cp -P); shift ;;
    *) usage ;;
  esac
done

if [ -f "$marker" ] && [ -d "$pages" ]; then
  echo "$pages"
  exit 0
fi
if [ ! -d "$SITE" ]; then
  echo "No folder at $SITE to copy $FOLDER's pages from." >&2
  exit 2
fi
rm -f "$marker"
rm -rf "$pages"
mkdir -p "$pages"
# Listed first, so that a site that cannot be read stops the copy (set -e) instead of leaving
# an empty one marked complete; in name order, so that two pages copied to one path
# (--directory-urls: X.html and X/index.html) leave the same one every time.
found="$(mktemp)"
trap 'rm -f "$found"' EXIT
(cd "$SITE" && find . -mindepth 1 "${depth[@]}" -name "$glob" \( -type f -o -type l \) -print0) |
  sort -z >"$found"
while IFS= read -r -d '' page; do
  relative="${page#./}"
  for left in "${leave_out[@]}"; do
    if [ "$relative" = "$left" ]; then
      continue 2
    fi
  done
  if [ -n "$noindex" ] && grep -qi '<meta name="robots" content="noindex' "$SITE/$relative"; then
    continue
  fi
  target="$relative"
  if [ -n "${renamed[$relative]+set}" ]; then
    target="${renamed[$relative]}"
  elif [ -n "$directory_urls" ]; then
    case "$relative" in
      index.html | */index.html) ;;
      *) target="${relative%.html}/index.html" ;;
    esac
  fi
  case "$target" in
    */*) mkdir -p "$pages/${target%/*}" ;;
  esac
  "${copy[@]}" "$SITE/$relative" "$pages/$target"
done <"$found"
touch "$marker"
echo "$pages"
