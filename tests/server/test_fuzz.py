"""A fuzz run of the OpenAPI schema (schemathesis) against a live server: no 5xx, ever.

Open mode with a generous limit, so generated bodies reach the engine, the stores and the
corpus rather than stopping at the guard; examples are bounded to keep the run short.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis.checks import not_a_server_error
from tests.support.app_servers import Served
from tests.support.engine_doubles import CountingEngine

SAMPLE = Path(__file__).parent / "fixtures" / "collection"


@pytest.fixture
def api_schema(serve_live: Callable[..., Served], database: str) -> schemathesis.BaseSchema:
    from citeline.corpus import Corpus

    with Corpus.open(database) as corpus:
        corpus.ingest(SAMPLE)
    server = serve_live(CountingEngine(), open=True, caller_key_file=None, rate_limit=100_000)
    return schemathesis.openapi.from_url(f"{server.url}/openapi.json")


# Per operation; 25 examples each keeps the whole run well under a minute on two cores.
EXAMPLES_PER_OPERATION = 25


def test_no_generated_request_gets_a_server_error(api_schema: schemathesis.BaseSchema) -> None:
    # Driven by hand rather than by schemathesis's pytest plugin, which does not load
    # under the pytest this project pins.
    operations = [result.ok() for result in api_schema.get_all_operations()]
    assert len(operations) >= 8
    for operation in operations:

        @given(case=operation.as_strategy())
        @settings(
            max_examples=EXAMPLES_PER_OPERATION,
            deadline=None,
            database=None,
            suppress_health_check=list(HealthCheck),
        )
        def run(case: schemathesis.Case) -> None:
            case.call_and_validate(checks=[not_a_server_error])

        run()
