"""Tabular data for the agent: tables from files, governed measures, read-only ad-hoc SQL.

Declare tables and measures in a ``citeline.toml`` (``load_project``) or with
``--data NAME=PATH`` (``table_option``), open them with ``DataCatalog.open``, then run
``catalog.measure(name, args)`` (governed: the owner's query) or ``catalog.sql(query)``
(ad hoc: one read-only ``SELECT``, bounded). Knows nothing of models, tools or HTTP.

Names here load on first use: the embedded model reads a governed measure's facts
(``citeline.data.facts``) in every process, and importing the package's catalog with them
loaded DuckDB (16 MB resident, measured in the demo's server) into servers that have no
tables.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from citeline.lazy import attributes

if TYPE_CHECKING:
    from citeline.data.catalog import (
        Column,
        DataCatalog,
        TableInfo,
        definition_text,
        table_text,
    )
    from citeline.data.errors import (
        DataError,
        MeasureError,
        ProjectError,
        QueryFailedError,
        QueryRefusedError,
    )
    from citeline.data.errors import (
        QueryFailed as QueryFailed,
    )
    from citeline.data.errors import (
        QueryRefused as QueryRefused,
    )
    from citeline.data.project import (
        SAMPLE_PROJECT,
        MeasureSpec,
        ParamSpec,
        Project,
        TableSpec,
        load_project,
        parse_project,
        project_from_options,
        resolve_project_path,
        table_option,
    )
    from citeline.data.readonly import QueryLimits
    from citeline.data.results import QueryResult

_LAZY = {
    **dict.fromkeys(
        ("Column", "DataCatalog", "TableInfo", "definition_text", "table_text"),
        "citeline.data.catalog",
    ),
    # QueryFailed and QueryRefused: the names from before every error was called
    # ``...Error``, kept for code written against them.
    **dict.fromkeys(
        (
            "DataError",
            "MeasureError",
            "ProjectError",
            "QueryFailed",
            "QueryFailedError",
            "QueryRefused",
            "QueryRefusedError",
        ),
        "citeline.data.errors",
    ),
    **dict.fromkeys(
        (
            "SAMPLE_PROJECT",
            "MeasureSpec",
            "ParamSpec",
            "Project",
            "TableSpec",
            "load_project",
            "parse_project",
            "project_from_options",
            "resolve_project_path",
            "table_option",
        ),
        "citeline.data.project",
    ),
    "QueryLimits": "citeline.data.readonly",
    "QueryResult": "citeline.data.results",
}


__getattr__ = attributes(__name__, _LAZY)

__all__ = [
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
]
