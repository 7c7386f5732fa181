"""The OpenAI SDK client under citeline's OpenAI-protocol providers: stream chunks parsed in Rust.

The OpenAI SDK turns every streamed ``data:`` event into a ``ChatCompletionChunk`` with
``construct_type``, a pure-Python walk of the model's type hints that builds each nested
object field by field (its "lax" mode, the default). Measured here, that is 64 us a
token's chunk, alone more than the 30 us a streamed token may cost the whole server;
the SDK's own strict mode (``validate_type``: pydantic-core, in Rust) builds the same
object from the same dict in 3 us. ``ChunkValidatingOpenAI`` is the SDK's client with one
change: a streamed chat chunk goes through the strict path first, and when the strict
path refuses it (a provider that sends a finish reason or a field value outside the
SDK's types, which the lax path lets through) through the lax path, exactly as before.
(A provider whose every chunk is refused pays both, about 5 us more a chunk than before.)
So a chunk that parsed before parses now, to an equal object; every other response
(a whole completion, an error body, a model listing) takes the SDK's path unchanged.

``pydantic_ai_adapter`` hands this client to the library's OpenAI and Ollama providers.
This module does not touch the HTTP client (``sse_coalescing``, ``provider_network``) or
what the library does with the chunks.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, TypeVar, cast

import pydantic
from openai import AsyncOpenAI
from openai._models import validate_type
from openai.types.chat import ChatCompletionChunk

if TYPE_CHECKING:
    import httpx2
    from openai._models import FinalRequestOptions

_ResponseT = TypeVar("_ResponseT")

logger = logging.getLogger(__name__)


class ChunkValidatingOpenAI(AsyncOpenAI):
    """``AsyncOpenAI`` whose streamed chat chunks are validated by pydantic-core, falling back
    to the SDK's field-by-field construction for a chunk the validation refuses."""

    def _process_response_data(
        self, *, data: object, cast_to: type[_ResponseT], response: httpx2.Response
    ) -> _ResponseT:
        if cast_to is ChatCompletionChunk and isinstance(data, dict):
            try:
                return cast(_ResponseT, validate_type(type_=ChatCompletionChunk, value=data))
            except pydantic.ValidationError:
                pass  # outside the SDK's types: the lax path below builds it as before
        return super()._process_response_data(data=data, cast_to=cast_to, response=response)

    async def _sleep_for_retry(
        self,
        *,
        retries_taken: int,
        max_retries: int,
        options: FinalRequestOptions,
        response: httpx2.Response | None,
    ) -> None:
        # The SDK logs its retries at INFO on its own logger, which a deployment rarely shows;
        # a model server that fails and is asked again is an operator's business.
        logger.warning(
            "the model server %s; sending the request again (retry %d of %d)",
            "was not reached" if response is None else f"answered HTTP {response.status_code}",
            retries_taken + 1,
            max_retries,
        )
        await super()._sleep_for_retry(
            retries_taken=retries_taken, max_retries=max_retries, options=options, response=response
        )
