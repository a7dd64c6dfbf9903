"""The catalogues hold what the interface says, and only that: every message the code and templates mark is in both,
and every entry is a message something shows (the wiki's code and templates, or Django's and the other installed
apps' own messages, which the catalogues word as the wiki's). An entry left behind when its wording changed is one
more sentence for translators to keep translating, and hides that the new wording went untranslated.

The messages are read as ``makemessages`` reads them, with Babel and no GNU gettext: Python by its tokens, a template
through Django's ``templatize``; the repository's catalogues are only read. The API's operations are described in
English, by docstrings and ``extend_schema``, and so are its components, by their serializers' docstrings: both are
translated as they stand, and those messages are read from the schema."""

from __future__ import annotations

import functools
import importlib
import io
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from babel.messages.extract import extract
from babel.messages.pofile import read_po
from django.apps import apps
from django.conf import settings
from django.utils.translation import override
from django.utils.translation.template import templatize
from drf_spectacular.generators import SchemaGenerator

BASE = Path(settings.BASE_DIR)
LOCALE = BASE / "locale"
LANGUAGES = ("zh_Hans", "en")
# Django's own keywords, as makemessages passes them to xgettext.
KEYWORDS: dict[str, Any] = {
    "_": None,
    "gettext": None,
    "gettext_lazy": None,
    "gettext_noop": None,
    "ngettext": (1, 2),
    "ngettext_lazy": (1, 2),
    "pgettext": ((1, "c"), 2),
    "pgettext_lazy": ((1, "c"), 2),
    "npgettext": ((1, "c"), 2, 3),
    "npgettext_lazy": ((1, "c"), 2, 3),
}

# (context, message, plural): the plural is None for a message without one.
Key = tuple[str | None, str, str | None]


def _key(message: str | tuple[str, ...] | list[str], context: str | None) -> Key:
    if isinstance(message, str):
        return (context, message, None)
    return (context, message[0], message[1] if len(message) > 1 else None)


def _from_python(source: bytes) -> Iterator[Key]:
    for _, message, _, context in extract("python", io.BytesIO(source), keywords=KEYWORDS):
        yield _key(message, context)


def _from_template(path: Path) -> Iterator[Key]:
    """``templatize`` writes each message on one line, as a Python literal, and keeps the template's other text
    blanked out on its own lines; a tokenizer that checks indentation reads it once the lines are flush left."""
    source = templatize(path.read_text(encoding="utf-8"), origin=str(path))
    yield from _from_python("\n".join(line.lstrip() for line in source.splitlines()).encode())


def _api_descriptions() -> Iterator[tuple[Key, str]]:
    """Each operation's description and each object component's as written, untranslated (an enum's lists its
    choices)."""
    with override(None):
        schema = SchemaGenerator().get_schema(request=None, public=True)  # type: ignore[no-untyped-call]  # untyped in drf-spectacular
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            if isinstance(operation, dict) and operation.get("description"):
                yield (None, operation["description"], None), f"{method.upper()} {path}"
    for name, component in schema["components"]["schemas"].items():
        if "properties" in component and component.get("description"):
            yield (None, component["description"], None), f"components/schemas/{name}"


@functools.cache
def used_by_the_wiki() -> dict[Key, str]:
    """Every message the wiki's code and templates (Python, HTML, text e-mails, XML) mark, with a place it is, and the
    descriptions of the API's operations and components, with where they are."""
    found: dict[Key, str] = {}
    for key, operation in _api_descriptions():
        found.setdefault(key, operation)
    for root in (BASE / "wiki", BASE / "config"):
        for path in sorted(root.rglob("*.py")):
            if "migrations" not in path.parts:
                for key in _from_python(path.read_bytes()):
                    found.setdefault(key, str(path.relative_to(BASE)))
    for path in sorted(p for p in (BASE / "templates").rglob("*") if p.is_file()):
        for key in _from_template(path):
            found.setdefault(key, str(path.relative_to(BASE)))
    return {key: where for key, where in found.items() if key[1]}


@functools.cache
def used_by_other_apps() -> frozenset[tuple[str | None, str]]:
    """(context, message) of every message Django and the other installed apps show: an app's English catalogue where
    it ships one (Django's, made from its source), its source and templates otherwise (Django REST framework's lags
    behind it)."""
    found: set[tuple[str | None, str]] = set()
    roots = [Path(importlib.import_module("django").__file__ or "").parent / "conf"]
    roots += [Path(config.path) for config in apps.get_app_configs() if config.name != "wiki"]
    for root in roots:
        english = root / "locale" / "en" / "LC_MESSAGES" / "django.po"
        if english.exists():
            with english.open("rb") as handle:
                found |= {(m.context, _msgid(m)) for m in read_po(handle) if m.id}
        else:
            for path in root.rglob("*.py"):
                if not {"migrations", "tests"} & set(path.parts):
                    found |= {(context, message) for context, message, _ in _from_python(path.read_bytes())}
            for path in (root / "templates").rglob("*.html"):
                found |= {(context, message) for context, message, _ in _from_template(path)}
    return frozenset(found)


def _msgid(message: Any) -> str:
    return str(message.id[0] if isinstance(message.id, (tuple, list)) else message.id)


def catalogue(language: str) -> dict[Key, int]:
    """The entries of ``language``'s catalogue, with their line."""
    with (LOCALE / language / "LC_MESSAGES" / "django.po").open("rb") as handle:
        return {_key(m.id, m.context): m.lineno or 0 for m in read_po(handle, locale=language) if m.id}


def test_the_extraction_reads_every_kind_of_file() -> None:
    used = used_by_the_wiki()
    where = set(used.values())
    assert len(used) > 1500
    assert {(None, "Show changes", None), (None, "Cite this page", None)} <= used.keys()
    # a plural, a context, a message in Python and in a text e-mail and the OpenSearch description
    assert (None, "%(counter)s revision", "%(counter)s revisions") in used
    assert ("between quoted names", "”, “", None) in used
    assert {"templates/registration/password_reset_email.txt", "templates/wiki/opensearch.xml"} <= where
    assert any(path.startswith("wiki/services/") for path in where)
    assert used[(None, "Anonymous clients have no watchlist: this answers 401 without credentials.", None)] == (
        "GET /api/v1/watchlist/")
    assert used[(None, "The body of every 4xx answer.", None)] == "components/schemas/Error"
    # Django's and Django REST framework's own messages, as the catalogues word them
    assert {(None, "This field is required."), (None, "A valid biginteger is required.")} <= used_by_other_apps()
    assert (None, "Field filters") in used_by_other_apps()  # django-filter's, in its template alone


def test_every_message_the_wiki_marks_is_in_both_catalogues() -> None:
    for language in LANGUAGES:
        entries = catalogue(language)
        missing = sorted(f"{where}: {key}" for key, where in used_by_the_wiki().items() if key not in entries)
        assert missing == [], language


def test_every_catalogue_entry_is_a_message_something_shows() -> None:
    used = used_by_the_wiki().keys()
    others = used_by_other_apps()
    for language in LANGUAGES:
        unused = sorted(
            f"line {line}: {key}"
            for key, line in catalogue(language).items()
            if key not in used and key[:2] not in others
        )
        assert unused == [], language


_PLACEHOLDER = re.compile(r"%\((\w+)\)[sdfr]|\{(\w+)\}")


def _placeholders(text: str) -> set[str]:
    return {percent or brace for percent, brace in _PLACEHOLDER.findall(text)}


def test_every_translation_names_the_values_its_message_names() -> None:
    """A translation that leaves a value out says something else: the Chinese refusal of a file in another encoding
    named application/x-bibtex as the type to declare, whatever type the file was sent as. (Babel's check lets a
    translation drop a value.)"""
    for language in LANGUAGES:
        with (LOCALE / language / "LC_MESSAGES" / "django.po").open("rb") as handle:
            entries = read_po(handle, locale=language)
        wrong = []
        for message in entries:
            if not message.id:
                continue
            forms = [str(form) for form in (message.id if isinstance(message.id, (tuple, list)) else [message.id])]
            translations = [
                str(text)
                for text in (message.string if isinstance(message.string, (tuple, list)) else [message.string])
            ]
            for number, translation in enumerate(translations):
                # a language with one form (Chinese) uses it for every number, as the plural message
                stands_for = forms[-1] if entries.num_plurals == 1 else forms[min(number, len(forms) - 1)]
                if _placeholders(translation) != _placeholders(stands_for):
                    wrong.append(f"line {message.lineno}: {forms[0]!r} → {translation!r}")
        assert wrong == [], language
