from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from pytest_django import DjangoDbBlocker

if TYPE_CHECKING:
    from tests.factories import ContrastWiki, SmallWiki


FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"


def _load_seed() -> None:
    """The seed wiki in the test's database. The first load in a process runs ``seed_load`` and keeps a copy of the
    rows it wrote; later loads, into a database as empty as that first one found it, copy those rows back
    (PostgreSQL's COPY, a few hundred milliseconds instead of seconds)."""
    from wiki.models import Page
    from wiki.services.seed import seed_load

    if Page.objects.filter(slug="agentic-rl").exists():
        return
    before = _row_counts()
    if _SEED_COPY.rows is not None and before == _SEED_COPY.counts_before:
        _SEED_COPY.restore()
        return
    seed_load(directory=FIXTURES)
    if _SEED_COPY.rows is None:
        _SEED_COPY.take(before, _row_counts())


def _row_counts() -> dict[str, int]:
    """Each table's number of rows (one query)."""
    from django.db import connection

    # The models' tables: the database's own bookkeeping (stale_suggestion, kept by triggers) is no seed content.
    tables = sorted(connection.introspection.django_table_names(only_existing=True))
    with connection.cursor() as cursor:
        cursor.execute(" UNION ALL ".join(f"SELECT %s, count(*) FROM {connection.ops.quote_name(t)}" for t in tables),
                       tables)
        return dict(cursor.fetchall())


class _SeedCopy:
    """The rows the seed wrote into tables that were empty, as COPY's text, with their sequences' positions. Kept
    only when the seed wrote nothing into tables that held rows already (the migrations' content types, say)."""

    def __init__(self) -> None:
        self.counts_before: dict[str, int] = {}
        self.rows: dict[str, bytes] | None = None
        self.sequences: list[tuple[str, int]] = []

    def take(self, before: dict[str, int], after: dict[str, int]) -> None:
        from django.db import connection

        if any(after[t] != n for t, n in before.items() if n):
            return
        filled = [t for t, n in after.items() if n and not before[t]]
        rows: dict[str, bytes] = {}
        with connection.cursor() as cursor:
            for table in filled:
                with cursor.copy(f"COPY {connection.ops.quote_name(table)} TO STDOUT") as copy:
                    rows[table] = b"".join(bytes(block) for block in copy)
            # The sequences of the tables copied only: another table's rows stay, and so must its sequence.
            cursor.execute("SELECT s.name, q.last_value FROM unnest(%s::text[]) AS t (name), "
                           "pg_get_serial_sequence(quote_ident(t.name), 'id') AS s (name) "
                           "JOIN pg_sequences q ON format('%%I.%%I', q.schemaname, q.sequencename) = s.name "
                           "WHERE q.last_value IS NOT NULL", [filled])
            self.sequences = cursor.fetchall()
        self.counts_before, self.rows = before, rows

    def restore(self) -> None:
        from django.db import connection, transaction

        assert self.rows is not None
        # Foreign keys are checked at the end of the block (Django declares them deferrable), so tables go in any order.
        with transaction.atomic(), connection.cursor() as cursor:
            for table, data in self.rows.items():
                with cursor.copy(f"COPY {connection.ops.quote_name(table)} FROM STDIN") as copy:
                    copy.write(data)
            for name, value in self.sequences:
                cursor.execute("SELECT setval(%s, %s)", [name, value])


_SEED_COPY = _SeedCopy()


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup: None, django_db_blocker: DjangoDbBlocker) -> None:
    """The test database starts empty, a reused one too (runs before the seed became opt-in left it in theirs)."""
    from django.core.management import call_command

    from wiki.schema_state import database_behind

    with django_db_blocker.unblock():
        call_command("flush", interactive=False, verbosity=0)
        # As a server's first request does: asked once in the process, outside any test's count of queries.
        database_behind()


@pytest.fixture(autouse=True, scope="session")
def _cache_in_memory() -> Iterator[None]:
    """Tests keep the cache in process memory, so counted queries are the views' own; the shared backends have their own
    tests. The versions are read from PostgreSQL when the cache holds no copy (once a test) and after each move, never
    on a timer, so a count does not depend on how long the test took; their reading has its own tests."""
    from django.test import override_settings

    with override_settings(CACHES={"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}},
                           WIKI_VERSION_CHECK_SECONDS=24 * 60 * 60):
        yield


@pytest.fixture(autouse=True, scope="session")
def _english_unless_asked() -> Iterator[None]:
    """Tests read the English interface unless the request asks for a language; the wiki's own default,
    Chinese, and the choice of language have their tests in tests/wiki/test_i18n.py."""
    from django.test import override_settings

    with override_settings(LANGUAGE_CODE="en"):
        yield


@pytest.fixture(autouse=True)
def _no_language_left_active() -> None:
    """A request activates its language in the thread and leaves it there: each test starts from the default."""
    from django.utils import translation

    translation.deactivate()


@pytest.fixture(autouse=True)
def _empty_cache(_cache_in_memory: None) -> None:
    """What was cached from a test's database, which is rolled back after it, goes with it."""
    from django.core.cache import cache

    from wiki.caching import versions
    from wiki.caching.local import copies
    from wiki.caching.responses import asked_before

    cache.clear()
    copies.clear()
    asked_before.clear()
    versions.forget()


@pytest.fixture
def seed(request: pytest.FixtureRequest) -> None:
    """The seed wiki (``fixtures/``), for the tests about it: loaded in the test's transaction, rolled back after it.

    Every other test builds the rows it needs with ``tests.factories``, so editing the seed breaks only these."""
    names = set(request.fixturenames)
    marker = request.node.get_closest_marker("django_db")
    transactional = bool(marker and marker.kwargs.get("transaction")) or bool({"transactional_db", "live_server"} & names)
    request.getfixturevalue("transactional_db" if transactional else "db")
    _load_seed()


@pytest.fixture
def small_wiki(db: None) -> SmallWiki:
    """A small wiki with a row in every table (see :func:`tests.factories.make_wiki`)."""
    from tests.factories import make_wiki

    return make_wiki()


@pytest.fixture
def contrast_wiki(db: None) -> ContrastWiki:
    """Works set against each other on a page's claims (see :func:`tests.factories.make_contrast_wiki`)."""
    from tests.factories import make_contrast_wiki

    return make_contrast_wiki()


@pytest.fixture
def editor(db: None):  # type: ignore[no-untyped-def]
    from tests.factories import make_editor

    return make_editor("editor")


@pytest.fixture
def editor_client(client, editor):  # type: ignore[no-untyped-def]
    client.force_login(editor)
    return client
