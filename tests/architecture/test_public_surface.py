"""The public API, name by name: a change to it is a change to this file, made on purpose.

Users import from the packages (``citeline``, ``citeline.corpus``, ...), never from the
modules behind them, so those modules can move; each package's ``__all__`` is that promise.
A name added, renamed or dropped fails here until the list below says so too.
"""

from __future__ import annotations

import importlib
import subprocess
import sys

import pytest
from tests.architecture.imports import PACKAGE, module_name

PUBLIC: dict[str, tuple[str, ...]] = {
    "citeline": (
        "ChatMessage",
        "CitelineError",
        "ModelHandle",
        "answer",
        "resolve_model",
    ),
    "citeline.events": (
        "DEFAULT_MAX_CITATIONS",
        "MAX_CITATIONS_ENV",
        "Citation",
        "Done",
        "DoneState",
        "Event",
        "Provenance",
        "QuoteVerdict",
        "Start",
        "Token",
        "encode_sse",
        "from_json",
        "sse_frame",
        "to_json",
        "web_address",
    ),
    "citeline.conversation": (
        "Profile",
        "Role",
    ),
    "citeline.errors": (
        "CitelineError",
        "PathUnusableError",
    ),
    "citeline.stream": (
        "Anchor",
        "AnchorStripper",
        "Pipeline",
        "SourcesSectionStripper",
        "StreamChunk",
        "TextTransform",
    ),
    "citeline.database": (
        "DEFAULT_DATABASE",
        "DatabaseError",
        "DatabaseTooOldError",
        "DatabaseUnreachableError",
        "DatabaseUrl",
        "DriverMissingError",
        "PostgresUrl",
        "SchemaTooNewError",
        "SqliteUrl",
        "parse_database_url",
    ),
    "citeline.text": (
        "ANALYSIS_VERSION",
        "ANSWER",
        "INDEX",
        "Analysis",
        "MeaningReader",
        "SectionRead",
        "fold",
        "meaning_key",
        "meaning_text",
        "section_meanings",
    ),
    "citeline.corpus": (
        "Corpus",
        "CorpusError",
        "CorpusUnavailableError",
        "DenseUnavailableError",
        "Document",
        "EmbeddingModelError",
        "Hit",
        "IndexUnreadableError",
        "IngestProblem",
        "IngestProgress",
        "IngestReport",
        "JudgedQueriesError",
        "JudgedQueriesMissingError",
        "JudgedQuery",
        "Passage",
        "Retrieval",
        "SchemaVersionError",
        "SourcePathError",
        "load_beir_queries",
        "ndcg_at",
        "rank_documents",
        "recall_at",
    ),
    "citeline.data": (
        "SAMPLE_PROJECT",
        "Column",
        "DataCatalog",
        "DataError",
        "MeasureError",
        "MeasureSpec",
        "ParamSpec",
        "Project",
        "ProjectError",
        "QueryFailedError",
        "QueryLimits",
        "QueryRefusedError",
        "QueryResult",
        "TableInfo",
        "TableSpec",
        "definition_text",
        "load_project",
        "parse_project",
        "project_from_options",
        "resolve_project_path",
        "table_option",
        "table_text",
    ),
    "citeline.models": (
        "DEFAULT_MODEL",
        "MODEL_ENV",
        "ChatMessage",
        "FirstResult",
        "ModelHandle",
        "ModelServerError",
        "ModelSpecError",
        "RequestObserver",
        "Similarity",
        "StoredSimilarity",
        "ToolReply",
        "ToolSpec",
        "ToolUse",
        "TurnContent",
        "TurnReport",
        "embedded_features",
        "embedded_without",
        "load_model_library",
        "quotable",
        "resolve_model",
        "stream_turn",
        "texts_read_for_meaning",
    ),
    "citeline.agent": (
        "AgentTool",
        "ChatMessage",
        "CitationRequest",
        "Profile",
        "ProvenanceTag",
        "Source",
        "ToolOutput",
        "Toolbox",
        "answer",
        "answer_provenance",
        "ingest_reading",
        "join_reminder",
        "load_prompt",
        "source_href",
        "tagged_reply",
        "turn_has_user_message",
    ),
    "citeline.server": (
        "AnswerEngine",
        "CorpusAnswerEngine",
        "Guard",
        "ServerSettings",
        "StartupError",
        "configure_logging",
        "create_app",
        "describe_settings",
        "generate_key_pair",
        "mint_token",
        "serve",
        "serve_workers",
    ),
    "citeline.evaluation": (
        "LEAK_KINDS",
        "AnswerCollector",
        "AnswerStream",
        "CitationSummary",
        "EvalQuestion",
        "EvaluatedAnswer",
        "EvaluationProgress",
        "EvidenceSentence",
        "ObservedAnswer",
        "PlotUnavailableError",
        "QuestionFileError",
        "QuestionScore",
        "build_report",
        "citation_precision_recall",
        "cited_sources",
        "ensure_plot_available",
        "evaluate_answers",
        "find_leaks",
        "load_questions",
        "load_scifact_claims",
        "percentile",
        "score_answer",
        "summarize",
        "summary_table",
        "write_distribution_plot",
        "write_report",
    ),
    "citeline.cli": (
        "app",
        "main",
    ),
    "citeline.sample": (
        "COLLECTION_NAME",
        "LINK_TEMPLATE",
        "RELEASE",
        "examples_path",
        "sample_path",
    ),
}


@pytest.mark.parametrize("module", sorted(PUBLIC))
def test_each_public_module_exports_exactly_its_pinned_names(module: str) -> None:
    assert tuple(importlib.import_module(module).__all__) == PUBLIC[module]


@pytest.mark.parametrize("module", sorted(PUBLIC))
def test_every_exported_name_is_there_when_asked_for(module: str) -> None:
    loaded = importlib.import_module(module)
    missing = [name for name in PUBLIC[module] if not hasattr(loaded, name)]
    assert not missing


def test_every_package_of_citeline_has_its_surface_pinned_here() -> None:
    packages = {module_name(path) for path in PACKAGE.rglob("__init__.py")}
    layers = {name for name in packages if name.count(".") <= 1}
    assert layers <= set(PUBLIC), f"pin the __all__ of {sorted(layers - set(PUBLIC))}"


def test_importing_the_server_package_loads_no_web_framework_until_a_name_is_asked() -> None:
    """``citeline token`` and ``citeline serve --help`` reach the server's settings and keys
    without FastAPI and the engine (about a second), which only the app needs."""
    probe = (
        "import sys, citeline.server; before = 'fastapi' in sys.modules; "
        "citeline.server.create_app; print(before, 'fastapi' in sys.modules)"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=60
    )
    assert loaded.stdout.split() == ["False", "True"]
