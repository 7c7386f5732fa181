#!/usr/bin/env bash
# The hatch-md collection's sources: Hatch 1.18.2's sdist from PyPI (it carries the
# docs folder beside mkdocs.yml), sha256-checked and unpacked once into the collections cache;
# its docs folder, to ingest, on the last line (../../questions/sdist_docs.sh).
# Nothing of the sdist is committed (README.md beside this script says what it holds).
set -euo pipefail
exec "$(dirname "$0")/../../questions/sdist_docs.sh" hatch 1.18.2 \
  7f365f1a5b8f1a8162813daed9bf9fce83f15dc933fc99c6d04cbb942e64f4d0
