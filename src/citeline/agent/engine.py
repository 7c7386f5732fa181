"""``answer``: one question in, one stream of events out.

For a real model over a corpus it first searches with the question itself (and, in a
conversation, the subject of the earlier questions) and gives the results to the model
as the turn's first tool result, tagged like any other: a model that cannot or will not
call tools still answers from the collection (recorded, a small local model called no
tool in 13 of 13 questions). When that search finds nothing and the model cannot call
tools, no model is asked: the answer ends ``nothing_found``. The corpus text a real model
is given is bounded by ``context_tokens`` (``context_budget``).

Runs one user turn of the tool loop with the chosen model, passes its text
through the stream pipeline, turns the anchors the pipeline finds into citations
for sources the tools returned in this turn and each quote block that verifies
against trusted text (the data's definitions and tables, then the documents the
tools returned) into a quote citation, and closes with ``done`` and its
provenance label. At most ``max_citations`` citation events are sent; a verdict for
every quote block is logged once per answer and carried on ``done`` (in process only,
for the evaluation report). Every call
builds its own tools, citation request, pipeline and resolver, so two answers
never share state. A runtime failure ends the stream with the held text and
``done{state: failed}``; cancellation propagates untouched. This module knows
nothing of HTTP or of how events are rendered.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncGenerator, AsyncIterator, Iterator, Sequence
from contextlib import aclosing
from typing import TYPE_CHECKING

from citeline.agent.attribution import Attributor, ServerCitations
from citeline.agent.citation_request import CitationRequest
from citeline.agent.citations import CitationResolver, max_citations_from_env
from citeline.agent.context_budget import DEFAULT_CONTEXT_TOKENS, ContextBudget
from citeline.agent.corpus_tools import corpus_tools
from citeline.agent.data_tools import data_tools
from citeline.agent.first_search import first_search
from citeline.agent.meaning import embedded_similarity
from citeline.agent.prompts import Profile, load_prompt
from citeline.agent.provenance import ProvenanceTag, answer_provenance, backs_figures
from citeline.agent.tools import AgentTool, Toolbox
from citeline.events import Done, DoneState, Event, QuoteVerdict, Start, Token
from citeline.models import (
    ChatMessage,
    FirstResult,
    ModelHandle,
    ModelServerError,
    TurnReport,
    resolve_model,
    stream_turn,
)
from citeline.stream import Pipeline, StreamChunk
from citeline.stream.quotes import (
    QuoteMatch,
    QuoteOutcome,
    QuoteVerifier,
    RejectReason,
    TrustedText,
    TrustedTexts,
)
from citeline.stream.sources_section import HeadingRule

if TYPE_CHECKING:
    from citeline.corpus import Corpus
    from citeline.data import DataCatalog

logger = logging.getLogger(__name__)


async def answer(
    question: str,
    *,
    corpus: Corpus | None = None,
    data: DataCatalog | None = None,
    model: str | ModelHandle = "embedded",
    profile: Profile = "search",
    history: Sequence[ChatMessage] | None = None,
    release: str | None = None,
    extra_tools: Sequence[AgentTool] = (),
    timeout: float | None = None,
    max_citations: int | None = None,
    heading_rule: HeadingRule = "strict",
    context_tokens: int | None = None,
) -> AsyncIterator[Event]:
    """Answer ``question`` from a corpus, data or both: ``Start``, tokens, citations, ``Done``.

    ``model`` is a model setting (see ``citeline.models.resolve_model``) or a
    resolved handle; a bad setting raises ``ModelSpecError`` before any event.
    ``history`` is the conversation so far (chat), ``release`` defaults to the
    corpus's own label, and ``extra_tools`` are offered beside ``search`` and ``read``.
    With ``data``, the ``measure`` and ``sql`` tools are offered too; at least one of
    ``corpus`` and ``data`` is needed. Past ``timeout`` seconds the model call is
    cancelled and the answer ends like a failure: held text, then ``done{failed}``.
    ``max_citations`` caps the citation events (default: ``CITELINE_MAX_CITATIONS``, else
    12); ``heading_rule`` is the source-list heading rule (``strict`` or ``tolerant``).
    ``context_tokens`` bounds the corpus text a real model is given (default the handle's,
    else ``DEFAULT_CONTEXT_TOKENS``, sized for an 8k context).
    """
    if corpus is None and data is None:
        raise ValueError("answer needs a corpus, data, or both to answer from")
    cap = max_citations_from_env() if max_citations is None else max_citations
    handle = model if isinstance(model, ModelHandle) else resolve_model(model)
    started = time.perf_counter()
    if release is None and corpus is not None:
        release = corpus.release
    yield Start(release=release)

    turn = _Turn(question, corpus, data, handle, extra_tools, cap, heading_rule, context_tokens)
    deadline = None if timeout is None else asyncio.get_running_loop().time() + timeout
    try:
        first = None
        if not handle.searches_first and corpus is not None:
            async with asyncio.timeout_at(deadline):
                first = await first_search(turn.toolbox, question, history or ())
            if first is None and handle.tools == "none":
                yield Done(state="nothing_found", seconds=_since(started), provenance="none")
                return
        fragments = turn.model_text(profile, history or (), first)
        async for event in turn.written_from(fragments, deadline):
            yield event
    except Exception as error:
        # Cancellation is not an Exception: it propagates untouched.
        _log_failure(error, started, timeout, handle)
        async for event in turn.failed(started, error):
            yield event
        return
    yield turn.done(started, history)


class _Turn:
    """One answer's tools, pipeline and citations, and what it has written so far. Every
    answer builds its own, so two answers never share state."""

    def __init__(
        self,
        question: str,
        corpus: Corpus | None,
        data: DataCatalog | None,
        handle: ModelHandle,
        extra_tools: Sequence[AgentTool],
        cap: int,
        heading_rule: HeadingRule,
        context_tokens: int | None,
    ) -> None:
        if context_tokens is None:
            context_tokens = handle.context_tokens or DEFAULT_CONTEXT_TOKENS
        budget = None if handle.searches_first else ContextBudget(context_tokens)
        tools = [
            *(
                corpus_tools(corpus, in_thread=_corpus_in_thread(handle, corpus), budget=budget)
                if corpus is not None
                else ()
            ),
            *(data_tools(data) if data is not None else ()),
            *extra_tools,
        ]
        self.question, self.corpus, self.handle = question, corpus, handle
        self.toolbox = Toolbox(tools, CitationRequest.from_prompt())
        self.resolver = CitationResolver(self.toolbox.sources, max_citations=cap)
        data_texts = data.trusted_texts() if data is not None else ()
        self.pipeline = Pipeline(
            quotes=_quote_verifier(data_texts, self.toolbox.trusted), heading_rule=heading_rule
        )
        # An extractive model writes only the passages it cites: nothing for attribution to
        # add; and without a corpus no passage is returned to attribute to.
        toolbox = self.toolbox
        attributor = (
            None
            if handle.extractive or corpus is None
            else Attributor(question, lambda: toolbox.trusted, embedded_similarity(corpus))
        )
        self.state_of = ServerCitations(self.resolver, attributor)
        self.report = TurnReport()
        self.written: list[str] = []
        self.verified: list[QuoteMatch] = []
        self.verdicts: list[QuoteVerdict] = []

    def model_text(
        self, profile: Profile, history: Sequence[ChatMessage], first: FirstResult | None
    ) -> AsyncGenerator[str, None]:
        """The model's turn over this answer's tools, as the text fragments it writes."""
        return stream_turn(
            self.handle,
            instructions=load_prompt(profile),
            question=self.question,
            history=tuple(history),
            tools=self.toolbox.specs(),
            on_request=self.toolbox.on_request,
            similarity=embedded_similarity(self.corpus) if self.handle.reads_for_meaning else None,
            first_result=first,
            report=self.report,
        )

    async def written_from(
        self, fragments: AsyncGenerator[str, None], deadline: float | None
    ) -> AsyncIterator[Event]:
        """The events of the model's text, through the pipeline, then what it held back."""
        async with aclosing(fragments):
            while True:
                # The deadline covers only the wait for the model, never a yield: a timeout
                # scope held across a yield would cancel whatever the consumer awaits next.
                async with asyncio.timeout_at(deadline):
                    try:
                        fragment = await anext(fragments)
                    except StopAsyncIteration:
                        break
                async for event in self._events(self.pipeline.feed(fragment)):
                    yield event
        async for event in self._events(self.pipeline.flush(), final=True):
            yield event

    async def _events(self, chunk: StreamChunk, *, final: bool = False) -> AsyncIterator[Event]:
        """A chunk's token and its anchors' citations, what the server finds for the
        sentences it completed (scored off the loop; the token is out already, so the reader
        has it), then its quote blocks."""
        for event in _text_and_anchors(chunk, self.resolver, self.written, self.state_of):
            yield event
        for event in await self.state_of.found(chunk.text, final=final):
            yield event
        for event in _quotes(chunk, self.resolver, self.verified, self.verdicts):
            yield event

    def failed(self, started: float, error: Exception) -> AsyncIterator[Event]:
        """How a failed answer ends: the held text, then ``done{failed}``, saying why when
        the model server said."""
        failure = str(error) if isinstance(error, ModelServerError) else None
        return _failed(self.pipeline, self.resolver, started, self.verdicts, failure=failure)

    def done(self, started: float, history: Sequence[ChatMessage] | None) -> Done:
        """How an answer that ran to its end ends: its state, provenance and counts."""
        toolbox, resolver = self.toolbox, self.resolver
        state: DoneState = "answered"
        # A data result is something found even with no source in it: a figure, or no rows.
        # An answer no tool result stands behind (no tool called, or none returned anything)
        # found nothing, whatever its text says: the embedded model's "no measure or column
        # records that" is such an answer. In a conversation a reply may stand on the earlier
        # turns instead ("say that more simply"): there, only a turn whose tools found
        # nothing did.
        found = toolbox.sources or _DATA_TAGS & set(toolbox.tags)
        unbacked = not found and (bool(toolbox.calls) or not history)
        # An extractive model quotes only what it cites, so its answer that cites nothing and
        # relies on no data result is its line saying that nothing answers.
        relied_on = resolver.cited or self.verified or _DATA_TAGS & set(toolbox.tags)
        if (
            not "".join(self.written).strip()
            or unbacked
            or (self.handle.extractive and not relied_on)
        ):
            state = "nothing_found"
        _log_verdicts(self.verdicts)
        return Done(
            state=state,
            seconds=_since(started),
            provenance=answer_provenance(
                toolbox.tags,
                cited_sources=resolver.cited,
                quote_verified=backs_figures(self.verified),
            ),
            dropped_anchors=resolver.dropped,
            verdicts=tuple(self.verdicts),
            truncated=self.report.cut,
            tool_call_text=self.pipeline.tool_call_text,
        )


def _log_failure(
    error: Exception, started: float, timeout: float | None, handle: ModelHandle
) -> None:
    """One log line for a failed answer, saying whose fault it was."""
    if isinstance(error, TimeoutError):
        logger.warning(
            "answer timed out after %.1f s: the model or a tool did not finish in %g s "
            "(slow upstream, model %s)",
            _since(started),
            timeout,
            handle.name,
        )
    elif isinstance(error, ModelServerError):
        # The model server's fault, said in one sentence: no traceback of our own code.
        logger.warning(
            "answer failed after %.1f s (broken upstream, model %s): %s",
            _since(started),
            handle.name,
            error,
        )
    else:
        logger.exception(
            "answer failed after %.1f s (broken upstream, model %s)",
            _since(started),
            handle.name,
            exc_info=error,
        )


_DATA_TAGS = frozenset({ProvenanceTag.GOVERNED, ProvenanceTag.AD_HOC})


def _corpus_in_thread(handle: ModelHandle, corpus: Corpus) -> bool:
    """Whether the corpus tools hand their calls to a worker thread: not for the embedded
    model over a local file, whose answer is this process's CPU from question to first token
    with or without the thread (the hand-offs cost more than the search: ``corpus_tools``),
    and whose answers the server already lets in a few at a time (``server.admission``). A
    real model's tools, and any over PostgreSQL or a corpus that does not say it is local
    (a test's stand-in), keep the loop free while they wait."""
    return not (handle.runs_in_process and getattr(corpus, "local", False) is True)


def _quote_verifier(fixed: Sequence[TrustedText], returned: list[TrustedText]) -> QuoteVerifier:
    """Checks a quote against the data's text and whatever the tools have returned so far
    (``returned`` is the toolbox's live record), built when a quote arrives: a few per
    answer at most, against at most a few dozen passages."""

    def verify(quote: str) -> QuoteMatch | RejectReason:
        return TrustedTexts([*fixed, *returned]).verify(quote)

    return verify


def _text_and_anchors(
    chunk: StreamChunk,
    resolver: CitationResolver,
    written: list[str],
    state: ServerCitations,
) -> Iterator[Event]:
    """A chunk's token and the citations of the model's own anchors in it. The answer then
    yields what the server finds for the sentences the text completed (``state.found``):
    after the model's own anchors, which it defers to; then ``_quotes``."""
    # The token goes first, so a citation's offsets point into text the caller already has.
    if chunk.text:
        written.append(chunk.text)
        yield Token(chunk.text)
    # Anchors before quote blocks: a model writes the cited sentence, then the quote that
    # backs it, so this is the order the reader meets them whether the two arrived in one
    # fragment or in several (a provider's stream is coalesced per network read). A quote
    # block carries no offset to order by exactly.
    for anchor in chunk.anchors:
        if (
            anchor.start is not None
            and anchor.end is not None
            and resolver.match(anchor.href) is not None
        ):
            state.cited_spans.append((anchor.start, anchor.end))
        citation = resolver.resolve(anchor)
        if citation is not None:
            yield citation


def _quotes(
    chunk: StreamChunk,
    resolver: CitationResolver,
    verified: list[QuoteMatch],
    verdicts: list[QuoteVerdict],
) -> Iterator[Event]:
    """A chunk's quote blocks: verdicts recorded, verified ones cited."""
    for outcome in chunk.quotes:
        verdicts.append(_verdict(outcome))
        if outcome.match is None:
            continue
        verified.append(outcome.match)
        quote = resolver.resolve_quote(outcome.match)
        if quote is not None:
            yield quote


def _verdict(outcome: QuoteOutcome) -> QuoteVerdict:
    source = None if outcome.match is None else outcome.match.id
    return QuoteVerdict(outcome.quote, outcome.status, outcome.reason, source)


def _log_verdicts(verdicts: Sequence[QuoteVerdict]) -> None:
    """One log record per answer with a quote block: every verdict, under ``verdicts``, so a
    reviewer sees what was rejected and why, not only what was cited."""
    if verdicts:
        logger.info(
            "quote blocks: %d verified of %d",
            sum(verdict.status == "verified" for verdict in verdicts),
            len(verdicts),
            extra={"verdicts": [verdict.as_dict() for verdict in verdicts]},
        )


async def _failed(
    pipeline: Pipeline,
    resolver: CitationResolver,
    started: float,
    verdicts: list[QuoteVerdict],
    *,
    failure: str | None = None,
) -> AsyncIterator[Event]:
    """How every failed answer ends: the text the pipeline held, then ``done{failed}``."""
    held = _flush_quietly(pipeline)
    if held:
        yield Token(held)
    _log_verdicts(verdicts)
    yield Done(
        state="failed",
        seconds=_since(started),
        dropped_anchors=resolver.dropped,
        verdicts=tuple(verdicts),
        failure=failure,
    )


def _flush_quietly(pipeline: Pipeline) -> str:
    try:
        return pipeline.flush().text
    except Exception:
        logger.exception("the stream pipeline could not flush after a failure")
        return ""


def _since(started: float) -> float:
    return time.perf_counter() - started
