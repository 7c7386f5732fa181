"""The options every command that asks a model shares: which model, how long a reply may be
and how much corpus text the model is given. ``serve`` reads the same from its settings."""

from __future__ import annotations

from typing import Annotated, Final

import typer

# As `citeline serve` (CITELINE_MAX_TOKENS): sent with every request of a real provider, so
# no command leaves a reply's length to the server (recorded: `ask` and `eval` sent none).
DEFAULT_MAX_TOKENS: Final = 2048

MaxTokensOption = Annotated[
    int,
    typer.Option(
        "--max-tokens",
        min=1,
        help="Most tokens a real model may write per reply.",
        show_default=True,
    ),
]
ContextTokensOption = Annotated[
    int | None,
    typer.Option(
        "--context-tokens",
        min=200,
        help="Most tokens of corpus text a real model is given per answer, nearest "
        "passages first (default 3000, sized for an 8k context).",
        show_default=False,
    ),
]
ModelOption = Annotated[
    str | None,
    typer.Option(
        "--model",
        help="embedded, openai:<model>, ollama:<model> or anthropic:<model> "
        "(default: $CITELINE_MODEL, else embedded).",
        show_default=False,
    ),
]
