"""Where answers, conversations and handoffs are kept: one interface, one module per backend."""

from __future__ import annotations

from citeline.database import DatabaseError, PostgresUrl
from citeline.server.errors import StartupError
from citeline.server.settings import ServerSettings
from citeline.server.store.base import (
    AnswerStore,
    Conversation,
    ConversationMessage,
    ConversationStore,
    Handoff,
    HandoffStore,
    Retention,
    StoredAnswer,
    Stores,
    StoreUnavailableError,
)

# The names from before every error was called ``...Error``, kept for code written against them.
from citeline.server.store.base import StoreUnavailable as StoreUnavailable
from citeline.server.store.sqlite import open_sqlite_stores


def open_stores(settings: ServerSettings, *, keep_handoffs: bool | None = None) -> Stores:
    """The stores ``settings.database`` selects: a SQLite file, or a PostgreSQL database.
    ``keep_handoffs`` defaults to whether ``settings.wire`` keeps them."""
    if keep_handoffs is None:
        from citeline.server.wires import wire_named

        keep_handoffs = wire_named(settings.wire).keeps_handoffs
    answers = Retention(settings.answer_ttl, settings.answer_max_entries)
    conversations = Retention(settings.conversation_ttl, settings.conversation_max_entries)
    # Handoffs only where they can be made: a native server keeps no table it never uses.
    handoffs = (
        Retention(settings.handoff_ttl, settings.answer_max_entries) if keep_handoffs else None
    )
    location = settings.database
    if isinstance(location, PostgresUrl):
        # Imported here so a default install never needs the PostgreSQL driver.
        from citeline.server.store.postgres import open_postgres_stores

        try:
            return open_postgres_stores(
                location, answers=answers, conversations=conversations, handoffs=handoffs
            )
        except DatabaseError as error:
            raise StartupError(str(error)) from None
    return open_sqlite_stores(
        location.path, answers=answers, conversations=conversations, handoffs=handoffs
    )


__all__ = [
    "AnswerStore",
    "Conversation",
    "ConversationMessage",
    "ConversationStore",
    "Handoff",
    "HandoffStore",
    "Retention",
    "StoreUnavailableError",
    "StoredAnswer",
    "Stores",
    "open_sqlite_stores",
    "open_stores",
]
