"""A server loads only what it serves with: in open mode, over a collection without tables,
answering with the embedded model, it never imports what checks caller tokens (PyJWT,
cryptography), the tables' engine (DuckDB), the ``limits`` library (a limit counted in the
database needs none of it) or the readers of source files (Markdown, YAML, an MkDocs
project's gitignore patterns: only an ingest reads files). Together they were 35 MB of the
demo server's resident memory (issue 30's line: <= 160 MB idle), measured by
``benchmarks/serve_memory.py --imports``.

The server is built and answers in a fresh process, since this one has imported them all;
the collection is built here, since an ingest reads files.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from tests.support.caller_keys import make_keys

from citeline.corpus import Corpus
from citeline.server.tokens import mint_token

UNNEEDED_IN_OPEN_MODE = (
    "jwt",
    "cryptography",
    "duckdb",
    "limits",
    "markdown_it",
    "yaml",
    "pathspec",
)

_SERVE_AND_ANSWER = """
import json, sys
from pathlib import Path
from starlette.testclient import TestClient
from citeline.server import Guard, ServerSettings, create_app

folder = Path(sys.argv[1])
settings = ServerSettings.from_env(
    environ=json.loads(sys.argv[2]), database_url=str(folder / "index.db")
)
Guard.check(settings)
with TestClient(create_app(settings)) as client:
    body = {"question": "What is a generator?", "caller_token": sys.argv[3]}
    answer = client.post("/v1/answer", json=body).text
state = answer.rsplit('"state":"', 1)[1].split('"', 1)[0]
loaded = sorted(name for name in sys.argv[4:] if name in sys.modules)
print(json.dumps({"state": state, "loaded": loaded}))
"""


def _serve_and_answer(folder: Path, environ: dict[str, str], token: str) -> dict[str, object]:
    docs = folder / "docs"
    docs.mkdir()
    (docs / "generators.md").write_text(
        "# Generators\n\nA generator is a function that yields values one at a time.\n"
    )
    with Corpus.open(folder / "index.db") as corpus:
        corpus.ingest(docs)
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            _SERVE_AND_ANSWER,
            str(folder),
            json.dumps(environ),
            token,
            *UNNEEDED_IN_OPEN_MODE,
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def test_an_open_server_answering_loads_no_token_checker_no_tables_engine_no_limits_library(
    tmp_path: Path,
) -> None:
    result = _serve_and_answer(tmp_path, {"CITELINE_OPEN": "1"}, "")
    assert result == {"state": "answered", "loaded": []}


@pytest.mark.parametrize("mode", ["guarded", "counted by the library"])
def test_what_an_open_server_leaves_out_a_server_that_needs_it_loads(
    mode: str, tmp_path: Path
) -> None:
    # The probe above can see these modules: a server that checks tokens loads the checker,
    # one that counts its limit in memory loads the library.
    if mode == "guarded":
        keys = make_keys(tmp_path)
        environ = {"CITELINE_CALLER_KEY_FILE": str(keys.ed25519_public_file)}
        token = mint_token(keys.ed25519_private, subject="a", ttl_seconds=300, audience="citeline")
        expected = ["cryptography", "jwt"]
    else:
        environ = {"CITELINE_OPEN": "1", "CITELINE_RATE_LIMIT_STORAGE": "memory://"}
        token, expected = "", ["limits"]
    result = _serve_and_answer(tmp_path, environ, token)
    assert result == {"state": "answered", "loaded": expected}
