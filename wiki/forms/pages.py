from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import forms
from django.conf import settings
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from wiki import markdown as wiki_markdown
from wiki.markdown.citations import MAX_TITLE_LENGTH
from wiki.markdown.wikilinks import target_slug
from wiki.models import Page
from wiki.models.pages import RESERVED_SLUGS
from wiki.models.rules import (
    MAX_PAGE_SUMMARY_CHARS,
    max_length,
    normalize_page_slug,
    validate_line,
    validate_lowercase,
    validate_no_conflict_markers,
    validate_optional_line,
    validate_page_slug,
    validate_text,
    without_django_null_check,
)
from wiki.text.numbers import grouped

MAX_NEW_WORKS = 2000


def new_works_from(data: Mapping[str, object]) -> list[str]:
    """The cited titles the editor ticked "cite as a new work" for, in the preview (``new_works`` checkboxes).

    Only compared with the titles the text cites, so nothing else needs checking; bounded in number and length.
    """
    values = data.getlist("new_works") if hasattr(data, "getlist") else []
    return [str(value).strip()[:MAX_TITLE_LENGTH] for value in values[:MAX_NEW_WORKS]]


class PageForm(forms.Form):
    title = forms.CharField(label=_("Title"), max_length=max_length(Page, "title"), validators=[validate_line])
    # Shown in page lists and search results: a few sentences, not a second body.
    summary = forms.CharField(label=_("Summary"), required=False, max_length=MAX_PAGE_SUMMARY_CHARS, validators=[validate_text],
                              widget=forms.Textarea(attrs={"rows": 2}))
    body = forms.CharField(
        label=_("Page text"),
        required=False,
        strip=False,
        validators=[validate_text],
        widget=forms.Textarea(attrs={"rows": 24, "class": "markdown-input", "spellcheck": "false"}),
    )
    # The keys a wiki's editors know: Alt+Shift+B (or the browser's own combination) for the summary, I for minor.
    comment = forms.CharField(label=_("Edit summary"), max_length=500, required=False, validators=[validate_optional_line],
                              widget=forms.TextInput(attrs={"accesskey": "b"}))
    minor = forms.BooleanField(
        label=_("This is a minor edit"), required=False, widget=forms.CheckboxInput(attrs={"accesskey": "i"}),
        help_text=_("A typo, formatting or a small rewording, nothing a reader of the page needs to check: readers can "
                    "hide minor edits from recent changes and their watchlist."))
    base_revision = forms.IntegerField(required=False, min_value=1, widget=forms.HiddenInput)
    # The page the form was opened on: saved there wherever it has moved since, never to a page created meanwhile at
    # the address the form was opened at.
    page_id = forms.IntegerField(required=False, min_value=1, widget=forms.HiddenInput)
    # Set when the wiki asked whether to blank the page: saving again confirms it (see :meth:`ask_to_confirm_blank`).
    confirm_blank = forms.BooleanField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["body"].help_text = gettext(
            "Markdown: headings, lists, tables, code, footnotes (text[^1] and a line [^1]: note), ~~struck out~~. "
            "Wiki links: [[Target]], [[Target|label]] or [[Target#heading]]. Formulas: $…$ or \\(…\\) within a line, "
            "$$…$$ on lines of their own (\\$ is a plain dollar sign). HTML other than simple tags (b, i, sub, sup, kbd, "
            "span…) is shown as typed. Citations: （来源：Title，pp.3-4） or （综合：Title）; several works （来源：A、B，§2）, "
            "each at its own place （来源：A，p.3；B，§2）. "
            "At most %(count)s characters.") % {"count": grouped(settings.WIKI_MAX_BODY_CHARS)}
        for field in self.fields.values():
            without_django_null_check(field)

    def clean_body(self) -> str:
        body: str = self.cleaned_data["body"].replace("\r\n", "\n")
        validate_no_conflict_markers(body)
        try:
            wiki_markdown.check_complexity(body)
        except wiki_markdown.MarkdownTooComplex as error:
            raise forms.ValidationError(str(error), code="too_complex") from error
        return body


    def ask_to_confirm_blank(self, error: forms.ValidationError) -> None:
        """Shows the question the service asked (a refusal coded ``blanking``) beside the text, and makes saving the
        form again its confirmation, as a wiki's "save again to blank the page" does."""
        data = self.data.copy()  # type: ignore[attr-defined]  # a QueryDict from the request; the stubs say Mapping
        data["confirm_blank"] = "1"
        self.data = data
        self.add_error("body", error)


class PageSectionForm(PageForm):
    """One section of a page, edited alone: its text, an edit summary, the revision it was read from and its number
    there. The page's title and summary are not part of it and stay as they are."""

    section = forms.IntegerField(min_value=1, widget=forms.HiddenInput)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        del self.fields["title"], self.fields["summary"]
        self.fields["body"].label = _("Section text")
        self.fields["base_revision"].required = True


class PageCreateForm(PageForm):
    slug = forms.CharField(
        max_length=200, required=False,
        help_text=_("Part of the address; left empty, it is made from the title: letters in lower case, a hyphen for "
                    "each space, Chinese characters as they are (“GRPO 在智能体训练中的应用” gives "
                    "grpo-在智能体训练中的应用).")
    )
    field_order = ["title", "slug", "summary", "body", "comment"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # A new page is never a minor edit, and is no page yet.
        del self.fields["minor"], self.fields["page_id"]

    def clean_slug(self) -> str:
        # Typed capitals are lower-cased, as a wiki link to the page would be.
        slug = normalize_page_slug(self.cleaned_data["slug"])
        if slug:
            validate_page_slug(slug)
            validate_lowercase(slug)
        return slug

    def clean(self) -> dict[str, object]:
        cleaned = super().clean() or {}
        title = cleaned.get("title")
        slug = cleaned.get("slug") or (target_slug(str(title)) if title else "")
        if title and not slug:
            self.add_error("slug", forms.ValidationError(_("The title gives no usable address; type a slug."), code="no_slug"))
            return cleaned
        if slug in RESERVED_SLUGS:
            self.add_error("slug", forms.ValidationError(_("“%(slug)s” is reserved; choose another slug."), code="reserved", params={"slug": slug}))
        elif slug and Page.all_objects.deleted().filter(slug=slug).exists():
            self.add_error("slug", forms.ValidationError(_("A deleted page has the address “%(slug)s”; staff can restore it."),
                                                         code="deleted", params={"slug": slug}))
        elif slug and Page.objects.filter(slug=slug).exists():
            self.add_error("slug", forms.ValidationError(_("A page at “%(slug)s” exists already; edit it instead."), code="exists", params={"slug": slug}))
        cleaned["slug"] = slug
        return cleaned
