"""Django REST framework's own messages, which the API answers with when a field or a request is refused, read in the
wiki's words in Chinese: the wiki's catalogue translates each one, so that "小于或等于" is never "小于或者等于" on
another field, and the reader is addressed as everywhere else in the wiki."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from pathlib import Path
from typing import Any, cast

import pytest
from babel.messages.pofile import read_po
from django.conf import settings
from django.utils import translation
from django.utils.functional import Promise
from django.utils.translation import gettext
from rest_framework import exceptions, serializers
from rest_framework.fields import Field
from rest_framework.test import APIClient

import wiki.api.serializers
import wiki.api.views

# DRF's wording for what the wiki's own messages say otherwise
FOREIGN_WORDING = ("或者", "您", "合法")
# What DRF's TokenAuthentication, which the API's extends, refuses an Authorization header with.
TOKEN_HEADER_MESSAGES = ("Invalid token header. No credentials provided.",
                         "Invalid token header. Token string should not contain spaces.",
                         "Invalid token header. Token string should not contain invalid characters.")


def _modules() -> list[object]:
    return [importlib.import_module(f"{package.__name__}.{module.name}")
            for package in (wiki.api.serializers, wiki.api.views) for module in pkgutil.iter_modules(package.__path__)]


def _field_messages(field: Field[Any, Any, Any, Any], found: set[Promise | str]) -> None:
    found.update(field.error_messages.values())
    for inner in (getattr(field, "child", None), getattr(field, "child_relation", None)):
        if isinstance(inner, Field):
            _field_messages(inner, found)


def _api_messages() -> set[Promise | str]:
    """Every message a field of the API's serializers can refuse a value with, and DRF's errors' default details."""
    found: set[Promise | str] = set()
    classes = {cls for module in _modules() for _, cls in inspect.getmembers(module, inspect.isclass)
               if issubclass(cls, serializers.Serializer) and cls.__module__.startswith("wiki.")}
    for cls in classes:
        serializer = cls()
        _field_messages(serializer, found)
        for field in serializer.fields.values():
            _field_messages(field, found)
    found.update(cast(Promise, cls.default_detail) for _, cls in inspect.getmembers(exceptions, inspect.isclass)
                 if issubclass(cls, exceptions.APIException))
    found.update((exceptions.Throttled.extra_detail_singular, exceptions.Throttled.extra_detail_plural,
                  *TOKEN_HEADER_MESSAGES))
    return found


def test_every_drf_message_the_api_can_answer_with_is_the_wikis_own_in_chinese() -> None:
    catalogue = read_po((Path(settings.BASE_DIR) / "locale/zh_Hans/LC_MESSAGES/django.po").open(encoding="utf-8"))
    messages = _api_messages()
    assert len(messages) > 40
    for message in messages:
        with translation.override("en"):
            msgid = str(message)
        with translation.override("zh-hans"):
            chinese = gettext(message) if isinstance(message, str) else str(message)
        entry = catalogue.get(msgid)
        assert entry is not None and entry.string, msgid
        assert chinese == entry.string and not any(word in chinese for word in FOREIGN_WORDING), (msgid, chinese)


@pytest.mark.django_db
def test_a_refused_write_reads_in_the_wikis_words(editor_api: APIClient) -> None:
    response = editor_api.post("/api/v1/questions/", {"title": "问题", "priority": "urgent"}, format="json",
                               HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert response.status_code == 400
    errors = response.json()["errors"]
    assert errors["priority"] == ["“urgent”不是可选的值。"]
    with translation.override("zh-hans"):
        assert str(exceptions.Throttled(wait=3).detail).endswith("请在 3 秒后再试。")
