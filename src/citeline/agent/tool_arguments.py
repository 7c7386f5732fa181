"""A tool's arguments as one pydantic model: the JSON schema the model is shown, and the check.

Each tool declares a ``ToolArguments`` subclass; ``arguments_schema`` gives the schema
the model layer sends (without pydantic's ``title`` keys, which providers only pass to
the model as noise), and ``parse_arguments`` validates what the model sent against the
same class. A failure becomes one ``ValueError`` sentence, "NAME must be EXPECTED",
which the toolbox hands the model as a tool error so it can call again. Each field says
what it expects with ``Expect``. This module does not run tools or decide what a tool
does with its arguments.
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated, Any, TypeVar

from pydantic import BaseModel, ConfigDict, StringConstraints, ValidationError
from pydantic.json_schema import GenerateJsonSchema, JsonSchemaMode, JsonSchemaValue
from pydantic_core import CoreSchema, core_schema

# A stripped, non-blank string: a blank query or id is never what the model meant.
Text = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, strict=True)]


@dataclass(frozen=True, slots=True)
class Expect:
    """Field metadata: the words after "NAME must be" when the field's value is wrong."""

    words: str


class ToolArguments(BaseModel):
    """The base of every tool's arguments.

    Keys the schema does not name are ignored rather than refused: a model that adds
    one still gets its call run, while the schema tells it not to
    (``additionalProperties: false``).
    """

    model_config = ConfigDict(
        extra="ignore", frozen=True, json_schema_extra={"additionalProperties": False}
    )


A = TypeVar("A", bound=ToolArguments)


class _Untitled(GenerateJsonSchema):
    """Pydantic's schema without the ``title`` it derives from class and field names, and
    without the class docstring: the tool's description is what the model reads about it."""

    def field_title_should_be_set(self, schema: Any) -> bool:
        return False

    def generate(self, schema: CoreSchema, mode: JsonSchemaMode = "validation") -> JsonSchemaValue:
        generated = super().generate(schema, mode)
        generated.pop("title", None)
        return generated

    def model_schema(self, schema: core_schema.ModelSchema) -> JsonSchemaValue:
        generated = super().model_schema(schema)
        generated.pop("title", None)
        generated.pop("description", None)
        return generated


def arguments_schema(model: type[ToolArguments]) -> dict[str, Any]:
    """The JSON schema of ``model`` as a tool's ``parameters``: a copy of its own, which
    the caller may change (the measure tool adds the project's names)."""
    return copy.deepcopy(_generated_schema(model))


# Every answer builds its tools, and pydantic generates a schema afresh on each call:
# profiled (py-spy, 200 answers from an OpenAI-protocol server), that was 17 % of an
# answer's CPU. A class's schema never changes, so it is generated once.
@functools.cache
def _generated_schema(model: type[ToolArguments]) -> dict[str, Any]:
    return model.model_json_schema(schema_generator=_Untitled)


def parse_arguments(model: type[A], args: Mapping[str, Any]) -> A:
    """``args`` checked against ``model``; a ``ValueError`` "NAME must be EXPECTED" for the
    first wrong field, a sentence the model can act on."""
    try:
        return model.model_validate(dict(args))
    except ValidationError as exc:
        location = exc.errors()[0]["loc"]
        name = str(location[0]) if location else "the arguments"
        raise ValueError(f"{name} must be {expected(model, name)}") from None


def expected(model: type[ToolArguments], name: str) -> str:
    """What field ``name`` of ``model`` expects, from its ``Expect`` metadata."""
    field = model.model_fields.get(name)
    for item in field.metadata if field else ():
        if isinstance(item, Expect):
            return item.words
    return "as the tool's schema describes"
