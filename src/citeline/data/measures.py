"""Check a model's arguments against a measure's declared parameters.

A measure's query is the owner's; only its arguments come from the model, and they reach
DuckDB as bound parameters, never as SQL text. This module turns loosely typed tool arguments
(JSON: a year may come as ``2008`` or ``"2008"``) into the declared types, or says what is
wrong; it does not run anything (``citeline.data.catalog`` does).
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any

from citeline.data.errors import MeasureError
from citeline.data.project import MeasureSpec, ParamSpec


def bind_arguments(measure: MeasureSpec, arguments: Mapping[str, Any]) -> dict[str, Any]:
    """Every declared parameter with a value of its type: given, else its default."""
    declared = {param.name: param for param in measure.params}
    unknown = sorted(set(arguments) - set(declared))
    if unknown:
        raise MeasureError(
            f"Measure {measure.name!r} has no parameter {', '.join(unknown)}; "
            f"its parameters are: {signature(measure) or 'none'}."
        )
    bound: dict[str, Any] = {}
    for name, param in declared.items():
        value = arguments.get(name)
        if value is None:
            if param.default is None:
                raise MeasureError(
                    f"Measure {measure.name!r} needs {name} ({param.type}); call it with"
                    f" {{{name!r}: ...}}."
                )
            value = param.default
        bound[name] = coerce(param, value, measure.name)
    return bound


def signature(measure: MeasureSpec) -> str:
    """``species: text, year: integer = 2008``, as the model is shown it."""
    return ", ".join(
        f"{param.name}: {param.type}" + ("" if param.required else f" = {param.default!r}")
        for param in measure.params
    )


def coerce(param: ParamSpec, value: Any, measure: str) -> Any:
    """``value`` as ``param.type``; a value that does not fit is a ``MeasureError``."""
    try:
        if param.type == "text":
            if isinstance(value, bool | dict | list):
                raise ValueError
            return str(value)
        if param.type == "integer":
            if isinstance(value, bool) or (isinstance(value, float) and not value.is_integer()):
                raise ValueError
            return int(value)
        if param.type == "number":
            if isinstance(value, bool):
                raise ValueError
            return float(value)
        if param.type == "boolean":
            return _boolean(value)
        return (
            value if isinstance(value, datetime.date) else datetime.date.fromisoformat(str(value))
        )
    except (TypeError, ValueError):
        example = {"integer": "2008", "number": "3.5", "boolean": "true", "date": "2008-11-30"}
        hint = f" such as {example[param.type]}" if param.type in example else ""
        article = "an" if param.type == "integer" else "a"
        raise MeasureError(
            f"Measure {measure!r}: {param.name} should be {article} {param.type}{hint},"
            f" not {value!r}."
        ) from None


def _boolean(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in {"true", "yes", "1"}:
        return True
    if text in {"false", "no", "0"}:
        return False
    raise ValueError(value)
