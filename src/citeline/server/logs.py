"""Structured logs for ``citeline serve``: one JSON object per line, or plain text.

Log calls elsewhere pass their fields as ``extra`` (``outcome``, ``refusal_cause``,
``token_events``...); the JSON formatter writes them as keys beside the message, so a
log pipeline can count refusals or abandoned answers without parsing sentences. Every line
names a citeline logger: uvicorn's own lines, which it tags ``uvicorn.error`` whatever
their level, are named ``citeline.server.http`` (and its access lines
``citeline.server.access``), and its start-up chatter at INFO is left out (the server says
where it listens itself).
Deliberately not here: what is logged (each module decides), metrics.
"""

from __future__ import annotations

import json
import logging
import sys
from datetime import UTC, datetime
from typing import Any

# Attributes every LogRecord has; anything else on a record came from ``extra``.
# uvicorn adds ``color_message`` (the message with terminal colours): noise in JSON.
_STANDARD = set(vars(logging.makeLogRecord({}))) | {
    "message",
    "asctime",
    "taskName",
    "color_message",
}


class JsonFormatter(logging.Formatter):
    """``{"time", "level", "logger", "message", ...extra, "exception"?}`` on one line."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        for key, value in vars(record).items():
            if key not in _STANDARD and not key.startswith("_"):
                entry[key] = value
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False, default=str)


# uvicorn's loggers, by the citeline name their lines are given.
_UVICORN_NAMES = {
    "uvicorn.error": "citeline.server.http",
    "uvicorn.access": "citeline.server.access",
    "uvicorn": "citeline.server.http",
}


class UvicornRenamed(logging.Filter):
    """Gives uvicorn's records citeline's names: measured, every INFO line of a first run
    was tagged ``uvicorn.error``, which reads as an error to anyone scanning the log."""

    def filter(self, record: logging.LogRecord) -> bool:
        renamed = _UVICORN_NAMES.get(record.name)
        if renamed is not None:
            record.name = renamed
        return True


def configure_logging(log_format: str, level: int = logging.INFO) -> None:
    """Send citeline's and uvicorn's logs to stderr in ``log_format`` (json or text)."""
    handler = logging.StreamHandler(sys.stderr)
    handler.addFilter(UvicornRenamed())
    # "Started server process", "Waiting for application startup."...: not news.
    logging.getLogger("uvicorn.error").setLevel(max(level, logging.WARNING))
    if log_format == "json":
        handler.setFormatter(JsonFormatter())
    else:
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
