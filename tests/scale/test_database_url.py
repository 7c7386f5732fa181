"""``CITELINE_DATABASE_URL``: a path or a URL picks the backend, and a password never shows."""

from __future__ import annotations

from pathlib import Path

import pytest

from citeline.database import (
    DatabaseError,
    PostgresUrl,
    SqliteUrl,
    parse_database_url,
)


@pytest.mark.parametrize(
    ("given", "path"),
    [
        ("citeline.db", Path("citeline.db")),
        ("/srv/site/index.sqlite", Path("/srv/site/index.sqlite")),
        ("sqlite:///relative/index.db", Path("relative/index.db")),
        ("sqlite:////srv/index.db", Path("/srv/index.db")),
    ],
)
def test_a_path_or_a_sqlite_url_names_a_sqlite_file(given: str, path: Path) -> None:
    assert parse_database_url(given) == SqliteUrl(path)


def test_a_sqlite_url_round_trips_through_its_text() -> None:
    location = SqliteUrl(Path("/srv/index.db"))
    assert parse_database_url(str(location)) == location


@pytest.mark.parametrize("scheme", ["postgresql", "postgres", "POSTGRESQL"])
def test_postgresql_urls_are_kept_whole(scheme: str) -> None:
    url = f"{scheme}://citeline@db.internal:5432/site?sslmode=require"
    assert parse_database_url(url) == PostgresUrl(url)


def test_the_redacted_form_hides_only_the_password() -> None:
    url = PostgresUrl("postgresql://citeline:s3cret@db.internal/site")
    assert url.redacted == "postgresql://citeline:***@db.internal/site"
    assert PostgresUrl("postgresql://citeline@db/site").redacted == "postgresql://citeline@db/site"


@pytest.mark.parametrize(
    ("given", "advice"),
    [
        ("mysql://db/site", "unknown scheme 'mysql'"),
        ("sqlite://index.db", "three slashes"),
        ("   ", "is empty"),
    ],
)
def test_an_unusable_url_says_what_to_write_instead(given: str, advice: str) -> None:
    with pytest.raises(DatabaseError, match=advice):
        parse_database_url(given)
