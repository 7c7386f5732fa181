#!/usr/bin/env bash
# The starlette-md collection's sources: Starlette 1.10.0's sdist from PyPI (it carries
# the docs folder beside mkdocs.yml), sha256-checked and unpacked once into the collections
# cache; its docs folder, to ingest, on the last line (../../questions/sdist_docs.sh).
# Nothing of the sdist is committed (README.md beside this script says what it holds).
set -euo pipefail
exec "$(dirname "$0")/../../questions/sdist_docs.sh" starlette 1.10.0 \
  b8399098d4c1e3522734f7235dc79b1fc967f96cf139c81e0fa30479e0685f9b
