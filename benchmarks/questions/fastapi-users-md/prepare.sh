#!/usr/bin/env bash
# The fastapi-users-md development collection's sources: FastAPI Users 15.0.5's sdist from PyPI (it
# carries the docs folder beside mkdocs.yml), sha256-checked and unpacked once into the
# collections cache; its docs folder, to ingest, on the last line (../../questions/sdist_docs.sh).
# The sdist is named fastapi_users-15.0.5.tar.gz, so the name given is the underscored one.
# Nothing of the sdist is committed (README.md beside this script says what it holds).
set -euo pipefail
exec "$(dirname "$0")/../../questions/sdist_docs.sh" fastapi_users 15.0.5 \
  097f69701894e650c346df89b1cdb0a09cf139234f4cb9a8ece275af4e98e202
