"""What the management commands answer for a file they cannot read or write, and the language they answer in."""

from __future__ import annotations

import errno
import os
import subprocess
import sys
from collections.abc import Callable
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db.migrations.recorder import MigrationRecorder
from django.test import override_settings

from tests.conftest import FIXTURES
from wiki.models import ChangeEvent, Page, Source, SourceImport

pytestmark = pytest.mark.django_db

NOT_UTF8 = b"\xff\xfe\x00 caf\xe9"


@pytest.fixture
def missing(tmp_path: Path) -> Path:
    return tmp_path / "missing.txt"


@pytest.fixture
def directory(tmp_path: Path) -> Path:
    path = tmp_path / "a-directory"
    path.mkdir()
    return path


@pytest.fixture
def unreadable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "locked.json"
    path.write_text("[]", encoding="utf-8")
    path.chmod(0)
    if os.geteuid() == 0:
        # The superuser reads whatever the mode says: refuse as the file system would refuse anyone else.
        real_open = Path.open

        def refusing_open(self: Path, *args: Any, **kwargs: Any) -> Any:
            if self == path:
                raise PermissionError(errno.EACCES, "Permission denied", str(self))
            return real_open(self, *args, **kwargs)

        monkeypatch.setattr(Path, "open", refusing_open)
    return path


@pytest.fixture
def not_utf8(tmp_path: Path) -> Path:
    path = tmp_path / "latin1.json"
    path.write_bytes(NOT_UTF8)
    return path


@pytest.fixture
def unwritable_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "read-only"
    path.mkdir()
    path.chmod(0o555)
    if os.geteuid() == 0:
        real_access = os.access
        monkeypatch.setattr(os, "access", lambda p, mode, **kw: False if Path(p) == path else real_access(p, mode, **kw))
    return path


def _refusal(command: Callable[[], object]) -> str:
    """The one line the command stopped with."""
    with pytest.raises(CommandError) as raised:
        command()
    message = str(raised.value)
    assert "\n" not in message
    return message


def _in_a_tmp_file(tmp_path: Path, name: str, content: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(content)
    return path


# Each command that reads a file, called with ``path``.
READERS: dict[str, Callable[[Path], object]] = {
    "import_page": lambda path: call_command("import_page", str(path), stderr=StringIO()),
    "import_references": lambda path: call_command("import_references", str(path)),
    "import_wiki": lambda path: call_command("import_wiki", str(path), verbosity=0),
    "train_classifier --heldout-texts": lambda path: call_command("train_classifier", "--heldout-texts", str(path)),
    "train_classifier --heldout-manifest": lambda path: call_command(
        "train_classifier", "--heldout-texts", str(FIXTURES / "sources.json"), "--heldout-manifest", str(path)),
}


@pytest.mark.parametrize("command", READERS.values(), ids=READERS.keys())
def test_a_missing_file_is_named_in_one_line(command: Callable[[Path], object], missing: Path) -> None:
    assert _refusal(lambda: command(missing)) == f"{missing}: no such file"


@pytest.mark.parametrize("command", READERS.values(), ids=READERS.keys())
def test_a_directory_is_named_as_one(command: Callable[[Path], object], directory: Path) -> None:
    assert _refusal(lambda: command(directory)) == f"{directory}: is a directory, not a file"


@pytest.mark.parametrize("command", READERS.values(), ids=READERS.keys())
def test_an_unreadable_file_is_named_in_one_line(command: Callable[[Path], object], unreadable: Path) -> None:
    assert _refusal(lambda: command(unreadable)) == f"{unreadable}: permission denied"


# A reference file is read as an upload is: in the encodings reference managers write (below).
_UTF8_ONLY = [name for name in READERS if name not in ("import_wiki", "import_references")]


@pytest.mark.parametrize("command", [READERS[name] for name in _UTF8_ONLY], ids=_UTF8_ONLY)
def test_a_file_that_is_not_utf8_is_named_in_one_line(command: Callable[[Path], object], not_utf8: Path) -> None:
    message = _refusal(lambda: command(not_utf8))
    assert message.startswith(f"{not_utf8}: ") and "UTF-8" in message


def test_import_wiki_names_a_file_that_is_not_utf8(not_utf8: Path) -> None:
    message = _refusal(lambda: call_command("import_wiki", str(not_utf8), verbosity=0))
    assert message.startswith(f"{not_utf8}: ") and "UTF-8" in message and "nothing was imported" in message


def test_import_references_reads_a_windows_file_as_the_upload_form_does(tmp_path: Path) -> None:
    path = _in_a_tmp_file(tmp_path, "windows.bib", "@article{a, title={Caf\xe9 agents \u2014 a study}, year={2024}}".encode("cp1252"))
    call_command("import_references", str(path), stdout=StringIO())
    assert Source.objects.get().title == "Caf\xe9 agents \u2014 a study"


def test_import_references_refuses_a_file_no_encoding_reads_and_names_it(tmp_path: Path) -> None:
    path = _in_a_tmp_file(tmp_path, "broken.bib", b"\xff\xfe@\x00a\x00r\x00")  # UTF-16 cut in the middle of a letter
    assert _refusal(lambda: call_command("import_references", str(path))).startswith(f"{path}: ")
    assert not Source.objects.exists()


def test_import_page_names_each_file_it_could_not_read_and_imports_the_others(tmp_path: Path, directory: Path,
                                                                             missing: Path) -> None:
    good = _in_a_tmp_file(tmp_path, "good.md", b"# Good page\n\nText.\n")
    out = StringIO()
    message = _refusal(lambda: call_command("import_page", str(directory), str(good), str(missing), stdout=out,
                                            stderr=StringIO()))
    assert f"{directory}: is a directory, not a file" in message and f"{missing}: no such file" in message
    assert str(good) not in message
    assert Page.objects.filter(title="Good page").exists()


# Each command that writes a file, called with ``path``.
WRITERS: dict[str, Callable[[Path], object]] = {
    "export_wiki": lambda path: call_command("export_wiki", str(path), verbosity=0),
    "export_wiki .gz": lambda path: call_command("export_wiki", str(path.with_name(path.name + ".gz")), verbosity=0),
    "train_classifier --out": lambda path: call_command("train_classifier", "--out", str(path)),
}


@pytest.mark.parametrize("command", WRITERS.values(), ids=WRITERS.keys())
def test_an_output_in_a_missing_directory_is_refused_before_anything_is_written(command: Callable[[Path], object],
                                                                                tmp_path: Path) -> None:
    path = tmp_path / "nowhere" / "out.jsonl"
    message = _refusal(lambda: command(path))
    assert message.endswith(f"no such directory {path.parent}") and message.startswith(str(tmp_path / "nowhere"))
    assert not (tmp_path / "nowhere").exists()


@pytest.mark.parametrize("command", [WRITERS["export_wiki"], WRITERS["train_classifier --out"]],
                         ids=["export_wiki", "train_classifier --out"])
def test_an_output_that_is_a_directory_is_refused(command: Callable[[Path], object], directory: Path) -> None:
    assert _refusal(lambda: command(directory)) == f"{directory}: is a directory, not a file"
    assert not any(directory.iterdir())


@pytest.mark.parametrize("command", [WRITERS["export_wiki"], WRITERS["train_classifier --out"]],
                         ids=["export_wiki", "train_classifier --out"])
def test_an_output_in_a_directory_that_may_not_be_written_is_refused(command: Callable[[Path], object],
                                                                     unwritable_directory: Path) -> None:
    path = unwritable_directory / "out.jsonl"
    assert _refusal(lambda: command(path)) == f"{path}: permission denied"
    assert not path.exists()


def test_load_wiki_refuses_a_missing_directory_and_a_file(tmp_path: Path, missing: Path) -> None:
    assert _refusal(lambda: call_command("load_wiki", "--directory", str(missing))) == f"{missing}: no such directory"
    a_file = _in_a_tmp_file(tmp_path, "sources.json", b"[]")
    assert _refusal(lambda: call_command("load_wiki", "--directory", str(a_file))) == f"{a_file}: not a directory"


def test_load_wiki_refuses_a_directory_that_holds_no_fixtures(tmp_path: Path) -> None:
    _in_a_tmp_file(tmp_path, "notes.md", b"# Not the wiki")
    message = _refusal(lambda: call_command("load_wiki", "--directory", str(tmp_path)))
    assert message.startswith(f"the wiki was not loaded, nothing changed: {tmp_path} holds none of the wiki's fixtures")
    assert not Source.objects.exists() and not ChangeEvent.objects.exists()


@pytest.mark.parametrize("content", [NOT_UTF8, b"[{", b"", None], ids=["not UTF-8", "not JSON", "empty", "a directory"])
def test_load_wiki_names_a_fixture_it_cannot_read_and_loads_nothing(tmp_path: Path, content: bytes | None) -> None:
    (tmp_path / "pages").mkdir()
    _in_a_tmp_file(tmp_path, "sources.json", b'[{"slug": "kept-out", "short_name": "Kept out"}]')
    if content is None:
        (tmp_path / "questions.json").mkdir()
    else:
        _in_a_tmp_file(tmp_path, "questions.json", content)
    message = _refusal(lambda: call_command("load_wiki", "--directory", str(tmp_path)))
    assert message.startswith(f"the wiki was not loaded, nothing changed: {tmp_path / 'questions.json'}: ")
    assert not Source.objects.exists() and not ChangeEvent.objects.exists()


@pytest.mark.parametrize("command", [
    ["load_wiki"], ["export_wiki", "out.jsonl"], ["check_consistency"], ["render_pages"], ["createeditor", "ed"],
], ids=lambda args: args[0])
def test_a_command_on_a_database_not_migrated_as_far_as_the_code_stops_before_changing_anything(
        tmp_path: Path, command: list[str]) -> None:
    # As after `migrate wiki 0053` or an upgrade that brings a migration: the wiki's last one is not applied.
    last = MigrationRecorder.Migration.objects.filter(app="wiki").latest("id")
    last.delete()
    args = [str(tmp_path / arg) if arg.endswith(".jsonl") else arg for arg in command]

    message = _refusal(lambda: call_command(*args))

    assert message == (f"the database is not migrated as far as the code (1 migration to apply, first wiki {last.name}): "
                       "run `manage.py prepare_wiki` (or `manage.py migrate`) first; nothing was changed")
    assert not Source.objects.exists() and not ChangeEvent.objects.exists() and not User.objects.exists()
    assert not (tmp_path / "out.jsonl").exists()


def test_a_command_on_a_database_it_cannot_reach_says_so_in_one_line() -> None:
    done = subprocess.run(
        [sys.executable, "manage.py", "check_consistency"], cwd=settings.BASE_DIR, capture_output=True, text=True,
        env={**os.environ, "DATABASE_URL": "postgres://postgres@127.0.0.1:9/wiki"}, timeout=120,
    )
    assert done.returncode == 1
    assert done.stderr.startswith("CommandError: the database cannot be reached: connection failed: ")
    assert done.stderr.count("\n") == 1, done.stderr


@override_settings(LANGUAGE_CODE="zh-hans")
def test_a_commands_errors_are_in_english_though_the_wiki_speaks_chinese() -> None:
    message = _refusal(lambda: call_command("createeditor", "bad name!", "--password", "a long pass phrase 42"))
    assert "Enter a valid username" in message


@override_settings(LANGUAGE_CODE="zh-hans")
def test_a_services_messages_in_a_commands_output_are_in_english(tmp_path: Path) -> None:
    path = _in_a_tmp_file(tmp_path, "refs.json", b'[{"type": "article-journal"}]')
    out = StringIO()
    call_command("import_references", str(path), "--dry-run", stdout=out)
    assert "refused: " in out.getvalue()
    assert not any("\u4e00" <= char <= "\u9fff" for char in out.getvalue()), out.getvalue()


def test_import_references_of_a_file_whose_every_entry_is_refused_says_why_and_records_nothing(tmp_path: Path) -> None:
    path = _in_a_tmp_file(tmp_path, "refused.bib", b"@misc{notitle, author={Z}}\n@misc{untitled, year={2024}}\n")
    out = StringIO()
    message = _refusal(lambda: call_command("import_references", str(path), stdout=out))
    assert message == f"{path}: Nothing was imported: each of the file's 2 entries was refused."
    assert "line 1: notitle: refused: no title" in out.getvalue() and "2 refused" in out.getvalue()
    assert not SourceImport.objects.exists()
