from __future__ import annotations

import copy
import functools
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar, cast

import pytest
from pytest_django import DjangoDbBlocker

if TYPE_CHECKING:
    from tests.factories import ContrastWiki, SmallWiki


FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"


def _load_seed() -> None:
    """The seed wiki in the test's database, loaded by ``seed_load`` the first time in a process and copied back
    after (see :func:`_built_once`)."""
    from wiki.models import Page
    from wiki.services.seed import seed_load

    if Page.objects.filter(slug="agentic-rl").exists():
        return

    def load() -> None:
        seed_load(directory=FIXTURES)

    _built_once(_SEED, load)


T = TypeVar("T")


def _built_once(copies: list[_RowsCopy], build: Callable[[], T]) -> T:
    """What ``build`` makes, in the test's database. The first build from a database in a given state runs ``build``
    and keeps a copy of every table it changed, with its sequences' positions; a later build from a database in the
    same state writes those tables back with PostgreSQL's COPY (milliseconds instead of seconds) and answers a deep
    copy of the objects the first build answered, which the same rows stand behind."""
    counts = _row_counts()
    for kept in copies:
        if kept.counts_before == counts and _fingerprints(list(kept.fingerprints_before)) == kept.fingerprints_before:
            kept.restore()
            return copy.deepcopy(cast(T, kept.value))
    if not _can_copy():
        return build()
    held = _fingerprints([t for t, n in counts.items() if n])
    value = build()
    # A few states at most: after each flush the migrations' rows (content types, say) have new ids.
    del copies[:-3]
    copies.append(_RowsCopy.take(counts, held, copy.deepcopy(value)))
    return value


def _row_counts() -> dict[str, int]:
    """Each table's number of rows (one query), the database's own bookkeeping (``stale_suggestion``, kept by
    triggers) too."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT tablename FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename")
        tables = [name for (name,) in cursor.fetchall() if name not in _CLOCKS]
        cursor.execute(" UNION ALL ".join(f"SELECT %s, count(*) FROM {connection.ops.quote_name(t)}" for t in tables),
                       tables)
        return dict(cursor.fetchall())


def _fingerprints(tables: list[str]) -> dict[str, str]:
    """A checksum of the rows of each of ``tables`` (one query)."""
    from django.db import connection

    if not tables:
        return {}
    with connection.cursor() as cursor:
        cursor.execute(" UNION ALL ".join(f"SELECT %s, coalesce(md5(string_agg(t::text, '|' ORDER BY t::text)), '') "
                                          f"FROM {connection.ops.quote_name(name)} t" for name in tables), tables)
        return dict(cursor.fetchall())


@functools.cache
def _can_copy() -> bool:
    """Rows are written back with the triggers off (they ran when the rows were first written, and the copy holds what
    they did), which PostgreSQL allows a superuser only; for anyone else every build runs."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT rolsuper FROM pg_roles WHERE rolname = current_user")
        row = cursor.fetchone()
    return bool(row and row[0])


@dataclass(frozen=True)
class _RowsCopy:
    """The rows of every table a build changed, as COPY's text, with the positions of their sequences, and a copy of
    what the build answered. They are written back only into a database whose tables hold as many rows as the build
    found, and the same rows in the tables it changed or whose rows it refers to (the ids of the migrations' content
    types, say)."""

    counts_before: dict[str, int]
    fingerprints_before: dict[str, str]
    rows: dict[str, bytes]
    sequences: list[tuple[str, int]]
    value: object

    @classmethod
    def take(cls, counts_before: dict[str, int], held_before: dict[str, str], value: object) -> _RowsCopy:
        from django.db import connection

        counts = _row_counts()
        held_after = _fingerprints(list(held_before))
        changed = [t for t, n in counts.items()
                   if n != counts_before.get(t) or (t in held_before and held_after[t] != held_before[t])]
        rows: dict[str, bytes] = {}
        with connection.cursor() as cursor:
            cursor.execute("SELECT DISTINCT c.confrelid::regclass::text FROM pg_constraint c "
                           "WHERE c.contype = 'f' AND c.conrelid::regclass::text = ANY(%s)", [changed])
            referred = {name.strip('"') for (name,) in cursor.fetchall()}
            for table in changed:
                with cursor.copy(f"COPY {connection.ops.quote_name(table)} TO STDOUT") as copied:
                    rows[table] = b"".join(bytes(block) for block in copied)
            # The sequences of the tables copied only: another table's rows stay, and so must its sequence.
            cursor.execute("SELECT s.name, q.last_value FROM unnest(%s::text[]) AS t (name) "
                           "JOIN pg_attribute a ON a.attrelid = quote_ident(t.name)::regclass AND a.attnum > 0 "
                           "AND NOT a.attisdropped "
                           "CROSS JOIN LATERAL pg_get_serial_sequence(quote_ident(t.name), a.attname) AS s (name) "
                           "JOIN pg_sequences q ON format('%%I.%%I', q.schemaname, q.sequencename) = s.name "
                           "WHERE q.last_value IS NOT NULL", [changed])
            sequences = cursor.fetchall()
        kept = {t: f for t, f in held_before.items() if t in referred or t in changed}
        return cls(counts_before=counts_before, fingerprints_before=kept, rows=rows, sequences=sequences, value=value)

    def restore(self) -> None:
        from django.db import connection, transaction

        # With the triggers off (foreign keys' checks among them), tables go in any order and the rows come back as
        # they were, with no trigger moving an updated_at or marking a suggestion stale a second time.
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute("SET session_replication_role = replica")
            try:
                for table, data in self.rows.items():
                    cursor.execute(f"DELETE FROM {connection.ops.quote_name(table)}")
                    with cursor.copy(f"COPY {connection.ops.quote_name(table)} FROM STDIN") as copied:
                        copied.write(data)
                for name, value in self.sequences:
                    cursor.execute("SELECT setval(%s, %s)", [name, value])
            finally:
                cursor.execute("SET session_replication_role = DEFAULT")


# Tables that only move forward: the versions, a clock that must never go back (the copy leaves it where it is).
_CLOCKS = {"content_version"}

# What each build wrote, by the state of the database it started from.
_SEED: list[_RowsCopy] = []
_SMALL_WIKI: list[_RowsCopy] = []
_CONTRAST_WIKI: list[_RowsCopy] = []


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """pytest-django creates the test database only when a collected test needs one, which it reads from the tests'
    markers and fixture names: ``seed`` asks for ``db`` only once it runs, so a run of its tests alone would find no
    test database made and use the database DATABASE_URL names. Its tests are marked as database tests instead."""
    for item in items:
        if "seed" in getattr(item, "fixturenames", ()) and item.get_closest_marker("django_db") is None:
            item.add_marker(pytest.mark.django_db)


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

    return _built_once(_SMALL_WIKI, make_wiki)


@pytest.fixture
def contrast_wiki(db: None) -> ContrastWiki:
    """Works set against each other on a page's claims (see :func:`tests.factories.make_contrast_wiki`)."""
    from tests.factories import make_contrast_wiki

    return _built_once(_CONTRAST_WIKI, make_contrast_wiki)


@pytest.fixture
def editor(db: None):  # type: ignore[no-untyped-def]
    from tests.factories import make_editor

    return make_editor("editor")


@pytest.fixture
def editor_client(client, editor):  # type: ignore[no-untyped-def]
    client.force_login(editor)
    return client
