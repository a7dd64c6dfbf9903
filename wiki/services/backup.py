"""The wiki's backup: every row of its content and the accounts that row refers to, as JSON lines.

The first line is a header (``{"format": "agentic-rl-wiki-backup", "version": 1, …}``); every other line is
one row as Django's serialisation framework writes it (``{"model": "wiki.page", "pk": 3, "fields": {…}}``),
grouped by model. Primary keys are kept, so the ids the changes feed, claim and question addresses and
classification histories refer to stay true. Timestamps are written in full (ISO 8601 with microseconds
and offset), not cut to milliseconds as Django's own JSON encoder does. Accounts come first, without
their password hashes (they come back unable to log in until a password is set), groups by name.
The search index is not written: it is rebuilt, with the pages' HTML, after an import. Nor are the API tokens, not
even their hashes: a backup is no key to the wiki, and the editors make new tokens.
"""

from __future__ import annotations

import datetime
import decimal
import gzip
import io
import json
import os
import secrets
import stat
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from django.apps import apps
from django.contrib.auth.hashers import make_password
from django.contrib.auth.models import Group
from django.core import serializers
from django.core.management.color import no_style
from django.core.serializers.base import DeserializationError, DeserializedObject
from django.db import DatabaseError, connection, transaction
from django.db.migrations.recorder import MigrationRecorder
from django.db.models import Model
from django.utils import timezone

from wiki.models import ApiToken, SearchDocument
from wiki.models.sort_keys import fill_sort_keys
from wiki.roles import Account

FORMAT_NAME = "agentic-rl-wiki-backup"
FORMAT_VERSION = 1
BATCH = 1000
# Derived from the other rows and rebuilt after an import.
DERIVED_MODELS: tuple[type[Model], ...] = (SearchDocument,)
# Credentials, never written to a backup nor read from one.
SECRET_MODELS: tuple[type[Model], ...] = (ApiToken,)
USER_FIELDS = ("username", "first_name", "last_name", "email", "is_staff", "is_superuser", "is_active",
               "date_joined", "last_login", "groups", "user_permissions")


class BackupRefused(Exception):
    """The file cannot be imported here; nothing was written."""


@dataclass
class BackupReport:
    counts: dict[str, int] = field(default_factory=dict)
    pages_rendered: int = 0

    def add(self, label: str, n: int = 1) -> None:
        self.counts[label] = self.counts.get(label, 0) + n


def content_models() -> list[type[Model]]:
    """The wiki's models a backup holds, in a stable order (the search index, derived, and API tokens are left out)."""
    left_out = DERIVED_MODELS + SECRET_MODELS
    return [model for model in apps.get_app_config("wiki").get_models() if model not in left_out]


class _Encoder(json.JSONEncoder):
    def default(self, o: object) -> Any:
        if isinstance(o, (datetime.datetime, datetime.date, datetime.time)):
            return o.isoformat()
        if isinstance(o, decimal.Decimal):
            return str(o)
        return super().default(o)


def _open(path: Path) -> IO[str]:
    if path.suffix == ".gz":
        return io.TextIOWrapper(gzip.GzipFile(path, "rb"), encoding="utf-8")
    return open(path, encoding="utf-8")


@contextmanager
def _replacing(path: Path) -> Iterator[IO[str]]:
    """A text file (gzip-compressed when ``path`` ends in ``.gz``) that takes the place of ``path`` only once the block
    ends without an error. It is written beside ``path`` under another name and renamed over it at the end, so a
    failure midway (a full disk, a row that cannot be serialised) leaves no partial file and a previous ``path`` as it
    was. A replaced file keeps its permissions: a backup names accounts and their e-mail addresses."""
    path = path.resolve()  # through a symbolic link, as writing to it did: the link stays
    partial = path.with_name(f".{path.name}.{secrets.token_hex(6)}.partial")
    kept_mode = stat.S_IMODE(path.stat().st_mode) if path.exists() else None
    try:
        with open(partial, "xb") as raw:
            if kept_mode is not None:
                os.fchmod(raw.fileno(), kept_mode)
            # The gzip header names the file it holds: the backup, not the partial file.
            binary = gzip.GzipFile(filename=path.name, mode="wb", fileobj=raw) if path.suffix == ".gz" else raw
            with io.TextIOWrapper(binary, encoding="utf-8") as out:
                yield out
        with open(partial, "rb") as written:
            os.fsync(written.fileno())  # on disk before it replaces the previous backup
        os.replace(partial, path)
    finally:
        partial.unlink(missing_ok=True)  # gone already when it replaced path


def _schema() -> str:
    applied = MigrationRecorder(connection).applied_migrations()
    names = sorted(name for app, name in applied if app == "wiki")
    return names[-1] if names else ""


def _rows(model: type[Model], **options: Any) -> Iterator[dict[str, Any]]:
    many = [f.name for f in model._meta.many_to_many if f.remote_field.through._meta.auto_created]  # type: ignore[union-attr]
    rows = model._base_manager.order_by("pk").prefetch_related(*many).iterator(chunk_size=BATCH)
    yield from serializers.serialize("python", rows, **options)


def _records() -> Iterator[dict[str, Any]]:
    yield from _rows(Group, use_natural_primary_keys=True, use_natural_foreign_keys=True)
    yield from _rows(Account, fields=USER_FIELDS, use_natural_foreign_keys=True)
    for model in content_models():
        yield from _rows(model)


def wiki_export(*, path: Path) -> BackupReport:
    """Writes the whole wiki to ``path`` (gzip-compressed when it ends in ``.gz``), read in one transaction. ``path``
    changes only once the backup is complete: a failure midway leaves a previous file there as it was."""
    report = BackupReport()
    with transaction.atomic(), _replacing(path) as out:
        header = {"format": FORMAT_NAME, "version": FORMAT_VERSION, "exported_at": timezone.now().isoformat(),
                  "schema": _schema()}
        out.write(json.dumps(header, ensure_ascii=False) + "\n")
        for record in _records():
            out.write(json.dumps(record, ensure_ascii=False, cls=_Encoder, sort_keys=True) + "\n")
            report.add(record["model"])
    return report


def wiki_is_empty() -> bool:
    """No account and no row of the wiki's tables (the editors group a migration makes may exist)."""
    return not Account.objects.exists() and not any(
        model._base_manager.exists() for model in apps.get_app_config("wiki").get_models()
    )


def _lines(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    try:
        with _open(path) as source:
            for number, line in enumerate(source, start=1):
                if not line.strip():
                    continue
                try:
                    record = json.loads(line)
                except json.JSONDecodeError as error:
                    if number == 1:
                        raise BackupRefused("not a backup of this wiki (its first line is not JSON)") from None
                    raise BackupRefused(f"line {number}: not JSON ({error.msg})") from None
                if not isinstance(record, dict):
                    raise BackupRefused(f"line {number}: not a JSON object")
                yield number, record
    except UnicodeDecodeError:
        raise BackupRefused("not UTF-8 text") from None
    except (OSError, EOFError) as error:
        raise BackupRefused(f"cannot read the file: {error}") from None


def _check_header(first: tuple[int, dict[str, Any]] | None) -> None:
    if first is None:
        raise BackupRefused("the file is empty")
    header = first[1]
    if header.get("format") != FORMAT_NAME:
        raise BackupRefused(f"not a backup of this wiki (its first line should name the format {FORMAT_NAME!r})")
    if header.get("version") != FORMAT_VERSION:
        raise BackupRefused(f"backup format version {header.get('version')!r}; this wiki reads version {FORMAT_VERSION}")


class _Writer:
    """Inserts deserialised rows in batches, as they were (``raw``: no ``auto_now`` stamp is renewed)."""

    def __init__(self, report: BackupReport) -> None:
        self.report = report
        self.model: type[Model] | None = None
        self.batch: list[DeserializedObject] = []
        self.models: set[type[Model]] = set()

    def add(self, item: DeserializedObject) -> None:
        model = type(item.object)
        if model is not self.model or len(self.batch) >= BATCH:
            self.flush()
            self.model = model
        self.batch.append(item)

    def flush(self) -> None:
        if not self.batch or self.model is None:
            return
        model, batch = self.model, self.batch
        self.batch = []
        self.models.add(model)
        self.report.add(model._meta.label_lower, len(batch))
        if model is Group:
            for item in batch:  # the editors group exists already; its permissions are made by migrate
                item.save()
            return
        if model is Account:
            for item in batch:
                item.object.password = make_password(None)  # type: ignore[attr-defined]
        for item in batch:
            # What a row derives from its own fields (a page's title as a link target, a work's folded names, the
            # names' sort keys) is derived again: a backup written before such a key existed holds none.
            if callable(derive := getattr(item.object, "derive_keys", None)):
                derive()
            fill_sort_keys(item.object)
        fields = model._meta.local_concrete_fields
        model._base_manager._insert([item.object for item in batch], fields=fields, raw=True)  # type: ignore[attr-defined]
        for name in {name for item in batch for name in (item.m2m_data or {})}:
            relation = model._meta.get_field(name)
            through = relation.remote_field.through  # type: ignore[union-attr]
            own, other = relation.m2m_field_name(), relation.m2m_reverse_field_name()  # type: ignore[union-attr]
            links = [through(**{f"{own}_id": item.object.pk, f"{other}_id": target})
                     for item in batch for target in (item.m2m_data or {}).get(name, [])]
            through._default_manager.bulk_create(links, batch_size=BATCH)
            self.models.add(through)


def _deserialized(number: int, record: dict[str, Any]) -> Iterable[DeserializedObject]:
    label = str(record.get("model", ""))
    models: list[type[Model]] = [Group, Account, *content_models()]
    allowed = {m._meta.label_lower for m in models}
    if label not in allowed:
        raise BackupRefused(f"line {number}: {label or 'a row without a model'} is not part of a backup")
    if label == Account._meta.label_lower and "password" in record.get("fields", {}):
        raise BackupRefused(f"line {number}: a backup holds no password hashes")
    try:
        return list(serializers.deserialize("python", [record]))
    except DeserializationError as error:
        raise BackupRefused(f"line {number}: {error}") from None


@transaction.atomic
def wiki_import(*, path: Path) -> BackupReport:
    """Restores a backup into an empty wiki, in one transaction: a refusal or a failure writes nothing.

    Then resets the id sequences past the restored rows, checks every reference, renders the pages'
    HTML again (should the renderer have changed since) and rebuilds the search index.
    """
    from wiki.search.index import search_reindex_all
    from wiki.services.pages import pages_rerender

    lines = _lines(path)
    _check_header(next(lines, None))
    if not wiki_is_empty():
        raise BackupRefused("the database is not empty: a backup is imported into a freshly migrated database")
    report = BackupReport()
    writer = _Writer(report)
    with connection.cursor() as cursor:
        # Each row's time as the backup has it: a citation restored does not make its claim's time now (migration 0050).
        cursor.execute("SET LOCAL wiki.keep_times = 'on'")
    try:
        for number, record in lines:
            for item in _deserialized(number, record):
                writer.add(item)
        writer.flush()
        with connection.cursor() as cursor:
            for statement in connection.ops.sequence_reset_sql(no_style(), sorted(writer.models, key=str)):
                cursor.execute(statement)
        connection.check_constraints()
    except DatabaseError as error:
        raise BackupRefused(f"the rows do not fit this database: {error}".strip()) from None
    report.pages_rendered = pages_rerender()
    search_reindex_all()
    return report
