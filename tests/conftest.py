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
    from wiki.models import Page
    from wiki.services.seed import seed_load

    if not Page.objects.filter(slug="agentic-rl").exists():
        seed_load(directory=FIXTURES)


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup: None, django_db_blocker: DjangoDbBlocker) -> None:
    """The test database starts empty, a reused one too (runs before the seed became opt-in left it in theirs)."""
    from django.core.management import call_command

    with django_db_blocker.unblock():
        call_command("flush", interactive=False, verbosity=0)


@pytest.fixture(autouse=True, scope="session")
def _cache_in_memory() -> Iterator[None]:
    """Tests keep the cache in process memory, so counted queries are the views' own; the shared backends have their own tests."""
    from django.test import override_settings

    with override_settings(CACHES={"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}):
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

    from wiki.caching.local import copies

    cache.clear()
    copies.clear()


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
