#!/usr/bin/env bash
# The typer-md collection's sources: Typer 0.10.0's sdist from PyPI (the last release whose
# sdist carries the docs folder, mkdocs.yml and docs_src/), sha256-checked and unpacked once
# into the collections cache; its docs folder, to ingest, on the last line (../sdist_docs.sh).
# Nothing of the sdist is committed (README.md beside this script says why and what it holds).
set -euo pipefail
exec "$(dirname "$0")/../sdist_docs.sh" typer 0.10.0 \
  597f974754520b091665f993f88abdd088bb81c56b3042225434ced0b50a788b
