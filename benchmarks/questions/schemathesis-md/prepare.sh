#!/usr/bin/env bash
# The schemathesis-md collection's sources: Schemathesis 4.32.5's sdist from PyPI (it carries
# docs/, mkdocs.yml, and the src/ package its API reference page renders docstrings from),
# sha256-checked and unpacked once into the collections cache; its docs folder, to ingest, on
# the last line (../sdist_docs.sh). Nothing of the sdist is committed (README.md beside this
# script says why and what it holds).
set -euo pipefail
exec "$(dirname "$0")/../sdist_docs.sh" schemathesis 4.32.5 \
  641fddfef22120f263b60616935f125fa9b71bd32cb3175c6210f38e5ed1cb2f
