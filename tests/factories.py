"""Plain helpers that make rows for tests."""

from __future__ import annotations

import itertools

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group

from wiki.models import Claim, Classification, OpenQuestion, Page, Source
from wiki.roles import User
from wiki.services.pages import page_save_revision

_counter = itertools.count(1)


def make_editor(username: str = "", *, password: str = "correct horse battery"):  # type: ignore[no-untyped-def]
    from wiki.roles import ensure_editor_group

    user = get_user_model().objects.create_user(username=username or f"editor{next(_counter)}", password=password)
    group: Group = ensure_editor_group()
    user.groups.add(group)
    return user


def make_reader(username: str = "", *, password: str = "correct horse battery"):  # type: ignore[no-untyped-def]
    return get_user_model().objects.create_user(username=username or f"reader{next(_counter)}", password=password)


def make_source(**fields: object) -> Source:
    n = next(_counter)
    defaults: dict[str, object] = {"slug": f"work-{n}", "short_name": f"Work {n}", "title": f"Work {n}: A Study"}
    defaults.update(fields)
    return Source.objects.create(**defaults)


def make_classification(source: Source, **fields: object) -> Classification:
    defaults: dict[str, object] = {"mechanism": "policy_gradient", "verdict": "strict", "interactive_env": True,
                                   "multi_step": True, "verifiable_reward": True, "rl_update": True}
    defaults.update(fields)
    return Classification.objects.create(source=source, **defaults)


def make_page(*, slug: str = "", title: str = "", body: str = "Text.", user: User | None = None) -> Page:
    n = next(_counter)
    revision = page_save_revision(slug=slug or f"page-{n}", title=title or f"Page {n}", body=body, user=user)
    return revision.page


def make_question(**fields: object) -> OpenQuestion:
    defaults: dict[str, object] = {"title": f"Question {next(_counter)}"}
    defaults.update(fields)
    return OpenQuestion.objects.create(**defaults)


def claims_of(page: Page) -> list[Claim]:
    return list(page.claims.current().order_by("position"))
