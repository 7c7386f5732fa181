#!/usr/bin/env bash
# The python-markdown-md collection's sources: Python-Markdown 3.11.3's sdist from PyPI
# (it carries the docs folder beside mkdocs.yml), sha256-checked and unpacked once into the
# collections cache; its docs folder, to ingest, on the last line (../../questions/sdist_docs.sh).
# Nothing of the sdist is committed (README.md beside this script says what it holds).
set -euo pipefail
exec "$(dirname "$0")/../../questions/sdist_docs.sh" markdown 3.11.3 \
  81eb91631dc97ad1efbc76019ef0f80fe90ca49ddf81546752d79989c3bfff3e
