"""A fuzz run of the reactome profile's routes (schemathesis over the OpenAPI schema): no 5xx.

As ``test_fuzz.py`` does for the native routes: open mode with a generous limit, so bodies
reach the engine, the answer store and the handoff store rather than stopping at the guard.
"""

from __future__ import annotations

from collections.abc import Callable

import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis.checks import not_a_server_error
from tests.support.app_servers import Served
from tests.support.engine_doubles import CountingEngine

REACTOME_PATHS = {"/chat/api/answer", "/api/handoff", "/api/handoff/{handoff_id}"}


def test_no_generated_reactome_request_gets_a_server_error(
    serve_live: Callable[..., Served],
) -> None:
    server = serve_live(
        CountingEngine(), wire="reactome", open=True, caller_key_file=None, rate_limit=100_000
    )
    schema = schemathesis.openapi.from_url(f"{server.url}/openapi.json")
    operations = [
        operation
        for operation in (result.ok() for result in schema.get_all_operations())
        if operation.path in REACTOME_PATHS
    ]
    assert {operation.path for operation in operations} == REACTOME_PATHS
    for operation in operations:

        @given(case=operation.as_strategy())
        @settings(
            max_examples=25,
            deadline=None,
            database=None,
            suppress_health_check=list(HealthCheck),
        )
        def run(case: schemathesis.Case) -> None:
            case.call_and_validate(checks=[not_a_server_error])

        run()
