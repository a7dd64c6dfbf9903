"""Every interface string is translated: marked in the templates, translated in both catalogues, and shown translated
on every page template in both languages. (That the catalogues hold every marked message, and only those, is
``test_catalogue``'s to check.)"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from django.conf import settings
from django.core.exceptions import SuspiciousOperation
from django.test import Client, RequestFactory
from django.test.signals import template_rendered
from django.urls import reverse
from django.utils import translation

from tests.factories import make_claim, make_editor, make_page, make_question, make_reader, make_source
from wiki.api.errors import bad_request, server_error
from wiki.models import Claim, Classification, Contrast, OpenQuestion, Page
from wiki.services.pages import page_save_revision
from wiki.views.unmigrated import unmigrated_answer

TEMPLATES = Path(settings.BASE_DIR) / "templates"
LOCALE = Path(settings.BASE_DIR) / "locale"
# Names and notations that read the same in both languages.
SAME_IN_BOTH = {
    "Agentic", "RL", "Wiki", "API", "CSV", "BibTeX", "CSL-JSON", "arXiv", "DOI", "URL", "GRPO", "ES", "LLM", "Atom", "English",
    "Shepherd", "vs", "Token", "Authorization", "key", "SFT", "PPO", "MCTS", "ID", "ISBN", "ISSN", "RIS",
    # HTTP's methods, which the browsable API's buttons send
    "GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS",
}


def _catalogue(language: str):  # type: ignore[no-untyped-def]
    with (LOCALE / language / "LC_MESSAGES" / "django.po").open("rb") as handle:
        return read_po(handle, locale=language)


def _msgid(message) -> str:  # type: ignore[no-untyped-def]
    return str(message.id[0] if isinstance(message.id, tuple) else message.id)


def _template_files() -> list[Path]:
    return sorted(TEMPLATES.rglob("*.html"))


@pytest.mark.parametrize("language", ["zh_Hans", "en"])
def test_every_message_has_its_translation_in_both_catalogues(language: str) -> None:
    catalogue = _catalogue(language)
    untranslated = [_msgid(m) for m in catalogue if m.id and (m.fuzzy or not all(m.string if isinstance(m.string, tuple) else [m.string]))]
    assert untranslated == []
    assert {_msgid(m) for m in catalogue if m.id} == {_msgid(m) for m in _catalogue("zh_Hans" if language == "en" else "en") if m.id}


def test_the_chinese_catalogue_is_chinese() -> None:
    """A translation identical to its English message is a message left untranslated (names excepted)."""
    same = [_msgid(m) for m in _catalogue("zh_Hans") if m.id and (m.string[0] if isinstance(m.string, tuple) else m.string) == _msgid(m)
            and re.search(r"[A-Za-z]{3,}", re.sub(r"%\(\w+\)s|<[^>]+>", "", _msgid(m)))
            and set(re.findall(r"[A-Za-z]+", re.sub(r"%\(\w+\)s|<[^>]+>", "", _msgid(m)))) - SAME_IN_BOTH]
    assert same == []


_TAG = re.compile(r"\{%.*?%\}|\{\{.*?\}\}", re.S)
_COMMENT = re.compile(r"\{#.*?#\}|\{% comment %\}.*?\{% endcomment %\}", re.S)
_TRANSLATED = re.compile(r"\{% blocktranslate.*?%\}.*?\{% endblocktranslate %\}|\{% translate .*?%\}", re.S)
_VERBATIM = re.compile(r"<(pre|code|script|style|kbd)\b.*?</\1>|\{% block (?:main|body)_class %\}.*?\{% endblock %\}", re.S)
# Addressed to the reader of the other language, in that language.
_OTHER_LANGUAGE = re.compile(r'title="Switch to English"|title="切换到中文"')
_SHOWN_ATTRIBUTES = re.compile(r'\b(title|placeholder|aria-label|alt|data-label)="([^"]*)"')


def _unmarked_words(source: str) -> set[str]:
    """Latin words a template shows that no translate tag carries."""
    text = _TRANSLATED.sub(" ", _COMMENT.sub(" ", source))
    text = _OTHER_LANGUAGE.sub(" ", _VERBATIM.sub(" ", text))
    shown = [_TAG.sub(" ", value) for _, value in _SHOWN_ATTRIBUTES.findall(text)]
    text = re.sub(r"<[^>]*>", " ", _TAG.sub(" ", text))
    parts = [text, *shown]
    words = set(re.findall(r"[A-Za-z][A-Za-z'’-]+", re.sub(r"&\w+;", " ", " ".join(parts))))
    return words - SAME_IN_BOTH


def test_no_template_comment_runs_over_a_line_break() -> None:
    """Django reads ``{# … #}`` on one line only: one that breaks is shown to readers as text."""
    broken = [f"{path.relative_to(TEMPLATES)}:{number}" for path in sorted(TEMPLATES.rglob("*.html"))
              for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
              if re.search(r"\{#(?!.*#\})", line)]

    assert broken == []


def test_no_template_shows_a_string_not_marked_for_translation() -> None:
    unmarked = {str(path.relative_to(TEMPLATES)): words for path in _template_files()
                if (words := _unmarked_words(path.read_text(encoding="utf-8")))}
    assert unmarked == {}


class CaptureTemplates:
    """The names of the templates rendered inside the block (what the test client records for a request)."""

    def __enter__(self) -> CaptureTemplates:
        self.names: set[str] = set()
        template_rendered.connect(self._record)
        return self

    def __exit__(self, *exc: object) -> None:
        template_rendered.disconnect(self._record)

    def _record(self, sender: object, template: object, **kwargs: object) -> None:
        name = getattr(template, "name", None)
        if name:
            self.names.add(name)


class _Text(HTMLParser):
    """The text a reader sees (and hears), outside content marked with its own ``lang``, scripts and code."""

    SKIP = {"script", "style", "pre", "code"}
    VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[bool] = []
        self.pieces: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        hidden = bool(self.stack and self.stack[-1]) or tag in self.SKIP or ("lang" in found and tag != "html")
        if not hidden:
            self.pieces += [value for name, value in attrs if name in {"title", "placeholder", "aria-label", "alt"} and value]
        if tag not in self.VOID:
            self.stack.append(hidden)

    def handle_endtag(self, tag: str) -> None:
        if tag not in self.VOID and self.stack:
            self.stack.pop()

    def handle_data(self, data: str) -> None:
        if not (self.stack and self.stack[-1]) and data.strip():
            self.pieces.append(" ".join(data.split()))


def _shown(html: str) -> list[str]:
    parser = _Text()
    parser.feed(html)
    return parser.pieces


@pytest.fixture
def screens(seed: None) -> list[tuple[str, str, dict[str, str] | None]]:
    """(who, address, form data to post or None): a request for every page template, with what it needs: the seed
    wiki's pages, whose every kind of content the walk reads in both languages."""
    unclassified = make_source(short_name="Unclassified Work", title="An unclassified work", abstract="We train a web agent with GRPO.")
    page = Page.objects.get(slug="agentic-rl")
    # a minor edit, marked as such in history, recent changes and the watchlist
    page_save_revision(slug=page.slug, title=page.title, body=page.body + "\n\nOne more sentence.", summary=page.summary, base_revision=1,
                       minor=True)
    claim = Claim.objects.filter(page=page).first()
    assert claim is not None
    question = OpenQuestion.objects.first()
    assert question is not None
    classification = Classification.objects.select_related("source").first()
    assert classification is not None
    source = classification.source.slug
    from wiki.services.deletion import page_delete, source_delete

    # answered, then reopened; one of its claims has left its page's text
    reopened = make_question(title="A reopened question", page=page, answer_claim=claim)
    reopened.claims.add(claim, Claim.objects.create(page=page, text="A sentence taken out.", key="taken-out", is_orphaned=True))
    gone = make_page(slug="gone-page", title="Gone page")
    gone_question = make_question(title="A question of a gone page", page=gone)
    page_delete(page=gone, user=None, reason="Spam")
    gone_claim = make_claim("一条页面已删除的论断。")
    page_delete(page=gone_claim.page, user=make_editor("deleter"), reason="Spam")
    source_delete(source=make_source(slug="gone-work", short_name="Gone Work"), user=None, reason="Not a work")
    from wiki.services.merges import source_merge

    merge = source_merge(merged=make_source(slug="merged-work", short_name="Merged Work"),
                         kept=make_source(slug="kept-work", short_name="Kept Work"), user=None)
    make_source(slug="gone-work-2", short_name="Another Work")
    # a deleted work whose name a live work took meanwhile: restoring it is refused, with the merge offered
    source_delete(source=make_source(slug="renamed-work", short_name="Twice Named", title="The first of two"), user=None,
                  reason="Deleted")
    make_source(slug="twice-named", short_name="Twice Named", title="The second of two")
    # a page whose latest edit is an editor's after an import (to roll back, or undo), and one whose first edit the
    # second changed again (an undo that clashes)
    make_page(slug="rolled", title="Rolled", body="Imported text.\n")
    page_save_revision(slug="rolled", title="Rolled", body="Spam.\n", comment="/* Intro */ spam", base_revision=1,
                       user=make_editor("spammer"))
    # an import whose work a page cites since (its undo refused), and a file previewed, to be confirmed
    from wiki.services.source_import import sources_import, sources_import_preview

    used = sources_import(text="@article{used, title={A Work Cited Since Its Import}, year={2024}}").record
    assert used is not None
    make_page(slug="cites-import", title="Cites an import", body="- 一句。（来源：A Work Cited Since Its Import）\n")
    confirmed = ("@article{confirmed, title={A Work Imported After Its Preview}, year={2025}}\n"
                 "@article{again, title={An unclassified work}, volume={3}}\n")  # found again, with a field to take
    make_page(slug="clashing", title="Clashing", body="One line.\n")
    page_save_revision(slug="clashing", title="Clashing", body="One line, changed.\n", base_revision=1)
    page_save_revision(slug="clashing", title="Clashing", body="One line, changed again.\n", base_revision=2)
    return [
        ("reader", reverse("wiki:home"), None),
        ("reader", reverse("wiki:page-list"), None),
        ("reader", reverse("wiki:wanted-pages"), None),
        ("reader", reverse("wiki:orphaned-pages"), None),
        ("reader", reverse("wiki:dead-end-pages"), None),
        ("reader", reverse("wiki:pages-without-citations"), None),
        ("reader", reverse("wiki:page-info", kwargs={"slug": "agentic-rl"}), None),
        ("reader", reverse("wiki:page-cite", kwargs={"slug": "agentic-rl"}), None),
        ("reader", reverse("wiki:page-cite", kwargs={"slug": "agentic-rl"}) + "?revision=1", None),
        ("reader", reverse("wiki:page-cite", kwargs={"slug": "agentic-rl"}) + "?revision=99", None),
        ("reader", reverse("wiki:page-detail", kwargs={"slug": "agentic-rl"}), None),
        ("reader", reverse("wiki:page-detail", kwargs={"slug": "tool-routing"}), None),
        ("reader", reverse("wiki:glossary-list"), None),
        ("reader", reverse("wiki:glossary-detail", kwargs={"slug": "policy-gradient"}), None),
        ("reader", reverse("wiki:page-backlinks", kwargs={"slug": "agentic-rl"}), None),
        ("reader", reverse("wiki:page-claims", kwargs={"slug": "agentic-rl"}), None),
        ("reader", reverse("wiki:claim-detail", kwargs={"pk": claim.pk}), None),
        ("reader", reverse("wiki:source-list"), None),
        ("reader", reverse("wiki:source-detail", kwargs={"slug": source}), None),
        ("reader", reverse("wiki:source-claims", kwargs={"slug": source}), None),
        ("reader", reverse("wiki:question-list"), None),
        ("reader", question.get_absolute_url(), None),
        ("reader", gone_question.get_absolute_url(), None),
        ("reader", reopened.get_absolute_url(), None),
        ("editor", reverse("wiki:question-list") + "?status=all&assigned=me&sort=changed", None),
        ("reader", reverse("wiki:search") + "?q=GRPO", None),
        ("reader", reverse("wiki:search") + "?q=zzzznothing", None),
        ("reader", reverse("wiki:search") + "?q=GRPO&kind=claim&p=2", None),
        ("reader", reverse("wiki:search"), None),
        ("reader", reverse("wiki:graph-map"), None),
        ("reader", reverse("wiki:graph-local", kwargs={"kind": "page", "key": "agentic-rl"}), None),
        ("reader", reverse("wiki:contrast", kwargs={"left": "skillforge", "right": "starharness"}), None),
        ("reader", reverse("wiki:contrast-multi"), None),
        ("reader", reverse("wiki:compare") + "?works=skillforge,starharness", None),
        ("reader", reverse("wiki:compare"), None),
        ("reader", reverse("wiki:changes"), None),
        ("reader", reverse("wiki:consistency-report"), None),
        ("reader", reverse("wiki:page-history", kwargs={"slug": "agentic-rl"}), None),
        ("reader", reverse("wiki:page-revision", kwargs={"slug": "agentic-rl", "number": 1}), None),
        ("reader", reverse("wiki:page-diff", kwargs={"slug": "agentic-rl"}) + "?from=1&to=2", None),
        ("reader", reverse("wiki:classification-history", kwargs={"pk": classification.pk}), None),
        ("reader", reverse("wiki:preferences"), None),
        ("plain", reverse("wiki:preferences"), None),
        # watching a page, a work and a question (each answers with its page), then the watchlist and its editor
        ("plain", reverse("wiki:watch", kwargs={"kind": "page", "pk": page.pk}), {"watch": "1"}),
        ("plain", reverse("wiki:watch", kwargs={"kind": "source", "pk": classification.source.pk}), {"watch": "1"}),
        ("plain", reverse("wiki:watch", kwargs={"kind": "question", "pk": question.pk}), {"watch": "1"}),
        ("plain", reverse("wiki:watchlist"), None),
        ("plain", reverse("wiki:watchlist") + "?kind=page&days=7&hidemine=1&hideminor=1&latest=1", None),
        ("plain", reverse("wiki:watchlist") + "?kind=question", None),
        ("plain", reverse("wiki:watchlist") + "?days=2", None),
        ("plain", reverse("wiki:watchlist-edit"), None),
        ("reader", reverse("login"), None),
        ("plain", reverse("password_change"), None),
        ("plain", reverse("password_change"), {"old_password": "wrong", "new_password1": "a", "new_password2": "b"}),
        ("plain", reverse("password_change_done"), None),
        ("reader", reverse("password_reset"), None),
        ("reader", reverse("password_reset_done"), None),
        ("reader", reverse("password_reset_confirm", kwargs={"uidb64": "MQ", "token": "no-such-token"}), None),
        ("reader", reverse("password_reset_complete"), None),
        ("reader", "/no/such/address/", None),
        ("reader", reverse("wiki:page-detail", kwargs={"slug": "gone-page"}), None),
        ("editor", reverse("wiki:source-detail", kwargs={"slug": "skilforge"}), None),
        ("editor", reverse("wiki:source-detail", kwargs={"slug": "gone-work"}), None),
        ("editor", reverse("wiki:page-delete", kwargs={"slug": "agentic-rl"}), None),
        ("editor", reverse("wiki:source-delete", kwargs={"slug": "skillforge"}), {"reason": "Refused: cited"}),
        ("editor", reverse("wiki:deleted-list"), None),
        ("editor", reverse("wiki:source-merge", kwargs={"slug": "gone-work-2"}), {"into": "gone-work-2"}),
        ("editor", reverse("wiki:source-restore", kwargs={"slug": "renamed-work"}), {}),
        ("editor", reverse("wiki:source-detail", kwargs={"slug": "kept-work"}), None),
        ("editor", reverse("wiki:source-merge-undo", kwargs={"pk": merge.pk}), None),
        ("plain", reverse("wiki:page-create"), None),
        # a form posted after the session ended: nothing saved, what was typed shown to copy
        ("reader", reverse("wiki:glossary-create"), {"slug": "typed", "name_en": "Typed after the session ended"}),
        ("editor", reverse("wiki:page-detail", kwargs={"slug": "agentic-rl"}), None),
        ("editor", reverse("wiki:source-detail", kwargs={"slug": source}), None),
        ("editor", reverse("wiki:page-create"), None),
        ("editor", reverse("wiki:page-edit", kwargs={"slug": "agentic-rl"}), None),
        ("editor", reverse("wiki:page-edit", kwargs={"slug": "agentic-rl"}),
         {"title": page.title, "summary": page.summary, "body": page.body + "\n\nPreviewed.", "base_revision": "2", "preview": "1"}),
        # its changes shown before saving, the whole page's and a section's, and changes there are none of
        ("editor", reverse("wiki:page-edit", kwargs={"slug": "agentic-rl"}),
         {"title": page.title + " (new)", "summary": "", "body": page.body + "\n\nShown.", "base_revision": "2", "diff": "1"}),
        ("editor", reverse("wiki:page-edit", kwargs={"slug": "agentic-rl"}),
         {"section": "1", "body": "## 摘要\n\nShown section.\n", "base_revision": "2", "diff": "1"}),
        ("editor", reverse("wiki:page-edit", kwargs={"slug": "agentic-rl"}),
         {"title": page.title, "summary": page.summary, "body": page.body + "\n\nOne more sentence.", "base_revision": "2",
          "diff": "1"}),
        # one section's form and preview, and a section the page does not have
        ("editor", reverse("wiki:page-edit", kwargs={"slug": "agentic-rl"}) + "?section=2", None),
        ("editor", reverse("wiki:page-edit", kwargs={"slug": "agentic-rl"}),
         {"section": "1", "body": "## 摘要\n\nPreviewed section.\n", "base_revision": "2", "preview": "1"}),
        ("editor", reverse("wiki:page-edit", kwargs={"slug": "agentic-rl"}) + "?section=999", None),
        # citations close to a work (did you mean) and new ones
        ("editor", reverse("wiki:page-edit", kwargs={"slug": "agentic-rl"}),
         {"title": page.title, "summary": page.summary, "base_revision": "2", "preview": "1",
          "body": page.body + "\n\n- 一句。（来源：SkillForge: Evolving Verifiable Skill for Reinforcement Learning Agents）"
                              "（来源：A Work Cited for the First Time）"}),
        # markup of other wikis, named with what to write instead
        ("editor", reverse("wiki:page-edit", kwargs={"slug": "agentic-rl"}),
         {"title": page.title, "summary": page.summary, "base_revision": "2", "preview": "1",
          "body": page.body + "\n\n#REDIRECT [[Agentic RL]]\n\n[[Category:Reward design]] [[User:ed2]] [[File:a.png]] ~~~~"}),
        ("editor", reverse("wiki:page-edit", kwargs={"slug": "agentic-rl"}),
         {"title": page.title, "summary": page.summary, "body": page.body + "\n\nStale.", "base_revision": "1", "save": "1"}),
        # the page was deleted while being edited: the text comes back in the new-page form
        ("editor", reverse("wiki:page-edit", kwargs={"slug": "gone-page"}),
         {"title": "Gone page", "summary": "", "body": "Kept text.", "base_revision": "1", "save": "1"}),
        # the claim's page was deleted while the claim was being edited: the entries come back, with who deleted it
        ("editor", reverse("wiki:claim-edit", kwargs={"pk": gone_claim.pk}),
         {"status": "verified", "citations-TOTAL_FORMS": "0", "citations-INITIAL_FORMS": "0"}),
        # a form over the upload limit (lowered by the test to 1 MB)
        ("editor", reverse("wiki:page-create"), {"title": "Big", "body": "x" * (1024 * 1024 + 1), "save": "1"}),
        ("editor", reverse("wiki:page-revert", kwargs={"slug": "agentic-rl", "number": 1}), None),
        ("editor", reverse("wiki:page-history", kwargs={"slug": "rolled"}), None),
        ("editor", reverse("wiki:page-diff", kwargs={"slug": "rolled"}) + "?from=1&to=2", None),
        ("editor", reverse("wiki:page-edit", kwargs={"slug": "agentic-rl"}) + "?undo=2", None),
        ("editor", reverse("wiki:page-edit", kwargs={"slug": "clashing"}) + "?undo=2", None),
        ("editor", reverse("wiki:page-edit", kwargs={"slug": "clashing"}) + "?undo=1", None),
        ("editor", reverse("wiki:page-rollback", kwargs={"slug": "clashing"}), {"base_revision": "3"}),
        ("editor", reverse("wiki:page-move", kwargs={"slug": "agentic-rl"}), None),
        ("editor", reverse("wiki:page-move", kwargs={"slug": "agentic-rl"}), {"slug": "wanted", "reason": "Refused"}),
        ("editor", reverse("wiki:claim-edit", kwargs={"pk": claim.pk}), None),
        ("editor", reverse("wiki:source-create"), None),
        ("editor", reverse("wiki:source-create"), {"entry": "@article{x, title={A Work Imported}, year={2025}}\n@article{broken", "import": "1"}),
        # found again with a field to take and a warning, and a work that may be another's
        ("editor", reverse("wiki:source-create"), {"import": "1", "entry": "@article{x, title={A Work Imported}, year={2025}, "
                                                   "volume={3}, doi={j.bad}}\n@article{y, title={A Work Imported: Part Two}, year={2025}}"}),
        ("editor", reverse("wiki:source-create"), {"confirm": "1", "text": confirmed, "format": "bibtex",
                                                   "digest": sources_import_preview(text=confirmed).digest}),
        ("editor", reverse("wiki:source-create"), {"confirm": "1", "text": confirmed, "digest": "stale"}),
        # a file whose every entry is refused: no Import offered, the entries to correct; confirmed, nothing imported
        ("editor", reverse("wiki:source-create"), {"entry": "@misc{untitled, author={Li, Na}}", "import": "1"}),
        ("editor", reverse("wiki:source-create"), {"confirm": "1", "text": "@misc{untitled, author={Li, Na}}", "format": "bibtex",
                                                   "digest": sources_import_preview(text="@misc{untitled, author={Li, Na}}").digest}),
        ("editor", reverse("wiki:import-list"), None),
        ("editor", used.get_absolute_url(), None),
        ("editor", reverse("wiki:import-undo", kwargs={"pk": used.pk}), {}),
        ("reader", reverse("wiki:source-cite", kwargs={"slug": source}), None),
        # the works' values side by side, to keep or take
        ("editor", reverse("wiki:source-merge", kwargs={"slug": "gone-work-2"}), {"into": "kept-work"}),
        ("editor", reverse("wiki:source-edit", kwargs={"slug": source}), None),
        # the work was deleted, or merged, while being edited: the entries come back with who, when and why
        ("editor", reverse("wiki:source-edit", kwargs={"slug": "gone-work"}), {"short_name": "Gone Work", "notes": "Kept."}),
        ("editor", reverse("wiki:source-edit", kwargs={"slug": "merged-work"}), {"short_name": "Merged Work", "notes": "Kept."}),
        ("editor", reverse("wiki:classification-create", kwargs={"slug": unclassified.slug}), None),
        ("editor", reverse("wiki:classification-edit", kwargs={"pk": classification.pk}), None),
        ("editor", reverse("wiki:contrast-create"), None),
        ("editor", reverse("wiki:contrast-edit", kwargs={"pk": Contrast.objects.earliest("pk").pk}), None),
        ("editor", reverse("wiki:contrast-delete", kwargs={"pk": Contrast.objects.earliest("pk").pk}), None),
        ("editor", reverse("wiki:question-create"), None),
        ("editor", reverse("wiki:question-edit", kwargs={"pk": question.pk}), None),
        ("editor", reverse("wiki:glossary-create"), None),
        ("editor", reverse("wiki:glossary-create"), {"slug": "pg-2", "name_zh": "策略梯度", "name_en": "x", "aliases_en": "PG"}),
        ("editor", reverse("wiki:glossary-edit", kwargs={"slug": "policy-gradient"}), None),
        ("editor", reverse("wiki:glossary-detail", kwargs={"slug": "policy-gradient"}), None),
        ("editor", reverse("wiki:triage"), None),
        ("editor", reverse("wiki:classifier-agreement"), None),
        ("editor", reverse("wiki:api-token"), None),
        # a token made: its key shown once, the list with its dates
        ("editor", reverse("wiki:api-token"), {"name": "Nightly import", "lifetime": "30"}),
        ("editor", reverse("wiki:api-token"), {"name": "", "lifetime": "0"}),
    ]


@pytest.mark.django_db
def test_every_page_template_reads_fully_in_both_languages(screens, settings) -> None:  # type: ignore[no-untyped-def]
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1024 * 1024
    catalogue = _catalogue("zh_Hans")
    english = {_msgid(m) for m in catalogue if m.id and (m.string[0] if isinstance(m.string, tuple) else m.string) != _msgid(m)
               and "%(" not in _msgid(m) and "<" not in _msgid(m)}
    chinese = {(m.string[0] if isinstance(m.string, tuple) else m.string) for m in catalogue if m.id} - english
    chinese = {text for text in chinese if re.search(r"[\u4e00-\u9fff]", text) and "%(" not in text and "<" not in text}
    editor = make_editor("walker")
    editor.is_staff = True  # staff see the delete, restore and merge screens too
    editor.save()
    plain = make_reader("plain-walker")
    rendered: set[str] = set()
    untranslated: list[tuple[str, str, list[str]]] = []
    for language, accept in (("zh-hans", "zh-CN,zh;q=0.9"), ("en", "en-US,en;q=0.9")):
        clients = {who: Client(headers={"accept-language": accept}) for who in ("reader", "editor", "plain")}
        clients["editor"].force_login(editor)
        clients["plain"].force_login(plain)
        for who, url, data in screens:
            client = clients[who]
            # a form that redirects is read where it leads (a watch button, back to its page)
            response = client.post(url, data, follow=True) if data is not None else client.get(url)
            assert response.status_code in (200, 400, 403, 404, 409, 410, 413), (language, url, response.status_code)
            html = response.content.decode()
            rendered |= {t.name for t in response.templates if t.name}
            assert f'<html lang="{"zh-Hans" if language == "zh-hans" else "en"}">' in html, (language, url)
            shown = set(_shown(html))
            left = sorted(shown & (english if language == "zh-hans" else chinese))
            if left:
                untranslated.append((language, url, left))
        for name in ("500", "400", "503"):
            with translation.override(language), CaptureTemplates() as captured:
                request = RequestFactory().get("/")
                if name == "500":
                    error = server_error(request)
                elif name == "400":
                    error = bad_request(request, SuspiciousOperation("bad host"))
                else:  # a database not migrated as far as the code
                    error = unmigrated_answer(request, ["wiki 0099_example"])
            rendered |= captured.names
            assert f'<html lang="{"zh-Hans" if language == "zh-hans" else "en"}">' in error.content.decode()
            left = sorted(set(_shown(error.content.decode())) & (english if language == "zh-hans" else chinese))
            if left:
                untranslated.append((language, name, left))
    assert untranslated == []
    # Overrides of another app's pages (Redoc's, the browsable API's pager and filters, which tests/api/test_browsable.py
    # reads in both languages) are not the wiki's screens.
    every = {str(path.relative_to(TEMPLATES)) for path in _template_files()
             if path.relative_to(TEMPLATES).parts[0] not in ("drf_spectacular", "rest_framework")}
    assert every - rendered == set()
