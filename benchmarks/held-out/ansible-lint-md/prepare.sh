#!/usr/bin/env bash
# The ansible-lint-md held-out collection's sources: ansible-lint 26.10.1's sdist from PyPI (it
# carries the docs folder beside mkdocs.yml), sha256-checked and unpacked once into the
# collections cache; its docs folder, to ingest, on the last line (../../questions/sdist_docs.sh).
# The sdist is named ansible_lint-26.10.1.tar.gz, so the name given is the underscored one.
# Nothing of the sdist is committed (README.md beside this script says what it holds).
set -euo pipefail
exec "$(dirname "$0")/../../questions/sdist_docs.sh" ansible_lint 26.10.1 \
  a746c6f3cb5719d1c202bc14e956ef3b0eca704025d1aa92707a27fc73ed73ea
