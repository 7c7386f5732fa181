#!/usr/bin/env bash
# The Cargo Book's pages as a folder to ingest: "The Cargo Book" of Cargo 1.95 (Rust 1.95.0),
# as rustup's rust-docs component installs it with the stable toolchain
# (${RUSTUP_HOME:-~/.rustup}/toolchains/stable-*/share/doc/rust/html/cargo, the mdBook build
# doc.rust-lang.org/1.95.0/cargo/ serves), copied with its folders into
# ${CITELINE_COLLECTIONS_CACHE:-$HOME/.cache/citeline-collections}/cargo-book-1.95.0, whose
# path is the last line printed, once (../site_pages.sh). Debian's cargo-doc (0.66) holds no Cargo
# Book, only the API pages of crates Cargo builds with; README.md beside this script says why this
# copy is used. Every HTML page is copied but those that ask search engines to leave them out
# (<meta name="robots" content="noindex">): mdBook marks so print.html, which repeats every
# chapter on one page under the chapters' heading ids, and toc.html, the sidebar's table of
# contents. Scripts, styles, fonts, images and the search index are not pages and are not copied.
# SITE can name another copy of the same book. Exit status 2 with a sentence when no copy is found
# or the one found is not Cargo 1.95's (its changelog's first entry is "Cargo 1.95").
set -euo pipefail
# The changelog's first entry names the release (a later Cargo's book lists 1.95 further down).
is_195() {
  [ "$(grep -o -m1 '<h2 id="cargo-[0-9]*-[0-9-]*">' "$1/CHANGELOG.html" 2>/dev/null | head -n1)" = '<h2 id="cargo-195-2026-04-16">' ]
}
if [ -z "${SITE:-}" ]; then
  for candidate in "${RUSTUP_HOME:-$HOME/.rustup}"/toolchains/*/share/doc/rust/html/cargo; do
    if is_195 "$candidate"; then
      SITE="$candidate"
      break
    fi
  done
fi
if [ -z "${SITE:-}" ] || ! is_195 "$SITE"; then
  echo "No Cargo Book of Cargo 1.95 found: install Rust 1.95.0 with rustup's rust-docs component (rustup toolchain install 1.95.0 --component rust-docs), or set SITE to its share/doc/rust/html/cargo." >&2
  exit 2
fi
exec "$(dirname "$0")/../site_pages.sh" "$SITE" cargo-book-1.95.0 --without-noindex
