from __future__ import annotations

from collections.abc import Mapping

from django.conf import settings
from django.urls import reverse
from django.utils.translation import gettext, gettext_lazy
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.exceptions import ErrorDetail

from wiki.api.serializers.claims import ClaimReportSerializer
from wiki.api.serializers.json_types import JSONTypes
from wiki.api.serializers.links import BrowserURLField, absolute
from wiki.markdown.citations import MAX_TITLE_LENGTH
from wiki.markdown.foreign_markup import ForeignKind
from wiki.models import Page, Revision, WikiLink
from wiki.models.rules import (
    MAX_PAGE_SUMMARY_CHARS,
    normalize_page_slug,
    validate_line,
    validate_lowercase,
    validate_no_conflict_markers,
    validate_optional_line,
    validate_page_slug,
    validate_text,
)
from wiki.references.citation_matching import WorkRef
from wiki.reports.page_info import PageInfo
from wiki.services.citations import CitationOutcome
from wiki.text.numbers import grouped


class PageListSerializer(serializers.ModelSerializer):
    html_url = BrowserURLField(help_text=gettext_lazy("The page in the browser (an absolute URL)."))

    class Meta:
        model = Page
        fields = ["slug", "title", "summary", "updated_at", "html_url"]
        read_only_fields = fields


class BacklinkSerializer(serializers.ModelSerializer):
    slug = serializers.CharField(source="source_page.slug", read_only=True)
    title = serializers.CharField(source="source_page.title", read_only=True)

    class Meta:
        model = WikiLink
        fields = ["slug", "title"]
        read_only_fields = fields


class TocEntrySerializer(serializers.Serializer):
    level = serializers.IntegerField()
    id = serializers.CharField()
    title = serializers.CharField()


class PageDetailSerializer(serializers.ModelSerializer):
    """A page with its Markdown, sanitised HTML, table of contents, current revision number and backlinks."""

    html_url = BrowserURLField()
    toc = TocEntrySerializer(many=True, read_only=True)
    revision = serializers.IntegerField(read_only=True, source="current_revision", allow_null=True,
                                        help_text=gettext_lazy("Number of the latest revision: send it back as base_revision to edit."))
    backlinks = serializers.SerializerMethodField()

    id = serializers.IntegerField(read_only=True, help_text=gettext_lazy(
        "The page's own number, which a move does not change: send it back as page_id with an edit or a move to "
        "make sure the write goes to this page, not to one created meanwhile at its address."))

    class Meta:
        model = Page
        fields = ["id", "slug", "title", "summary", "body", "rendered_html", "toc", "revision", "backlinks",
                  "created_at", "updated_at", "html_url"]
        read_only_fields = fields

    @extend_schema_field(BacklinkSerializer(many=True))
    def get_backlinks(self, page: Page) -> object:
        return BacklinkSerializer(WikiLink.objects.backlinks_to(page.slug), many=True).data


class ClaimCountsSerializer(serializers.Serializer):
    """The page's claims in its text by status, and those out of it awaiting an editor's decision."""

    verified = serializers.IntegerField(read_only=True)
    needs_verification = serializers.IntegerField(read_only=True)
    disputed = serializers.IntegerField(read_only=True)
    orphaned = serializers.IntegerField(read_only=True, help_text=gettext_lazy("Claims whose sentence left the text, not yet "
                                                                               "re-attached or retired."))


class PageInfoSerializer(serializers.Serializer):
    """What the page's "Page information" tells: its names, its history in figures, its watchers, its links, its
    claims, the works it cites and its questions."""

    slug = serializers.CharField(source="page.slug", read_only=True)
    title = serializers.CharField(source="page.title", read_only=True)
    html_url = BrowserURLField(source="page.get_absolute_url", help_text=gettext_lazy("The page in the browser (an absolute URL)."))
    former_slugs = serializers.SerializerMethodField(
        help_text=gettext_lazy("Addresses it had before a move or a new title, the latest first (at most 20): each leads to the page."))
    more_former_slugs = serializers.BooleanField(source="more_former_addresses", read_only=True)
    former_titles = serializers.ListField(child=serializers.CharField(), read_only=True,
                                          help_text=gettext_lazy("Titles its revisions had before, the latest first (at most 20)."))
    more_former_titles = serializers.BooleanField(read_only=True)
    content_language = serializers.CharField(read_only=True, help_text=gettext_lazy("zh-Hans when the page holds Chinese, else en."))
    size = serializers.IntegerField(read_only=True, help_text=gettext_lazy("The current text's length, in characters."))
    watchers = serializers.IntegerField(source="watchers_shown", read_only=True, allow_null=True,
                                        help_text=gettext_lazy("How many accounts watch the page; null when fewer than "
                                                               "watchers_shown_from, so that nobody can tell who watches it."))
    watchers_shown_from = serializers.IntegerField(read_only=True)
    revision = serializers.IntegerField(read_only=True, help_text=gettext_lazy("The current revision's number."))
    revisions = serializers.IntegerField(source="revision_count", read_only=True)
    authors = serializers.IntegerField(source="author_count", read_only=True,
                                       help_text=gettext_lazy("Accounts that saved a revision of it."))
    unattributed_revisions = serializers.IntegerField(read_only=True, help_text=gettext_lazy("Revisions saved by no account (imported)."))
    created_at = serializers.DateTimeField(read_only=True, allow_null=True)
    created_by = serializers.CharField(source="creator", read_only=True, allow_null=True,
                                       help_text=gettext_lazy("Who saved the first revision; null when it was imported."))
    last_edited_at = serializers.DateTimeField(read_only=True, allow_null=True)
    last_edited_by = serializers.CharField(source="last_editor", read_only=True, allow_null=True)
    backlinks = serializers.IntegerField(source="backlink_count", read_only=True,
                                         help_text=gettext_lazy("Other pages linking to it, by its address or a former one."))
    links_to_pages = serializers.IntegerField(source="page_link_count", read_only=True)
    links_to_wanted_pages = serializers.IntegerField(source="wanted_link_count", read_only=True,
                                                     help_text=gettext_lazy("Pages it links to that are not written yet."))
    claims = ClaimCountsSerializer(read_only=True)
    works_cited = serializers.IntegerField(source="cited_work_count", read_only=True)
    unresolved_questions = serializers.IntegerField(read_only=True, help_text=gettext_lazy("Its questions open or under investigation."))
    questions = serializers.IntegerField(source="question_count", read_only=True)

    def get_former_slugs(self, info: PageInfo) -> list[str]:
        return [former.slug for former in info.former_addresses]


class WorkRefSerializer(serializers.Serializer):
    """A work a citation resolves to or is close to."""

    slug = serializers.CharField(read_only=True)
    short_name = serializers.CharField(read_only=True)
    title = serializers.CharField(read_only=True)
    html_url = serializers.SerializerMethodField(help_text=gettext_lazy("The work in the browser (an absolute URL)."))
    api_url = serializers.SerializerMethodField(help_text=gettext_lazy("The work in the API (an absolute URL)."))

    def get_html_url(self, work: WorkRef) -> str:
        return absolute(self.context, reverse("wiki:source-detail", kwargs={"slug": work.slug}))

    def get_api_url(self, work: WorkRef) -> str:
        return absolute(self.context, reverse("api:source-detail", kwargs={"slug": work.slug}))


# Named in ENUM_NAME_OVERRIDES (OutcomeEnum): another serializer has an ``outcome`` of other values.
CITATION_OUTCOMES = [(outcome.value, outcome.value) for outcome in CitationOutcome]


class CitationMatchSerializer(serializers.Serializer):
    """How one cited title resolved. ``close``: left unresolved, no work created; correct the title to one of
    ``suggestions`` or send it in ``new_works`` to create it anyway."""

    title = serializers.CharField(read_only=True, help_text=gettext_lazy("The title as cited in the text."))
    outcome = serializers.ChoiceField(choices=CITATION_OUTCOMES, read_only=True,
                                      help_text=gettext_lazy("exact, normalised, short_name, identifier (its arXiv ID or DOI) or merged (the title of a "
                                                             "work merged into it): "
                                                             "resolved to an existing work; "
                                                             "close: did you mean one of the suggestions (unresolved); "
                                                             "created: a new work made by this save; new: would be made by a save."))
    work = WorkRefSerializer(read_only=True, allow_null=True, help_text=gettext_lazy("The work cited; null while unresolved."))
    suggestions = WorkRefSerializer(many=True, read_only=True, help_text=gettext_lazy("Existing works close to the title."))


class ForeignMarkupSerializer(serializers.Serializer):
    """A construct of MediaWiki's markup that this wiki reads otherwise; the save went through all the same."""

    kind = serializers.ChoiceField(choices=[(k.value, k.value) for k in ForeignKind], read_only=True,
                                   help_text=gettext_lazy("redirect (`#REDIRECT [[…]]`, a heading here), category, user or "
                                                          "namespace (`[[Category:…]]`, `[[User:…]]`, `[[File:…]]`…: links to pages "
                                                          "of those names), signature (`~~~~`, kept as typed)."))
    line = serializers.IntegerField(read_only=True)
    text = serializers.CharField(read_only=True, help_text=gettext_lazy("The construct as typed."))
    advice = serializers.CharField(read_only=True, help_text=gettext_lazy("What it does here and what to write instead, in the "
                                                                          "reader's language."))


class PageSavedSerializer(PageDetailSerializer):
    """The page as saved, what the save did to its claims (kept, reworded, split, merged, new, orphaned), how its
    cited titles resolved ("did you mean …" for those close to an existing work), the works it created and the
    markup of other wikis its text holds."""

    unchanged = serializers.BooleanField(read_only=True, help_text=gettext_lazy("True when the save changed nothing, so made no revision."))
    claim_changes = ClaimReportSerializer(read_only=True)
    citation_matches = CitationMatchSerializer(many=True, read_only=True)
    created_sources = WorkRefSerializer(many=True, read_only=True, help_text=gettext_lazy("Works this save created from citations."))
    foreign_markup = ForeignMarkupSerializer(many=True, read_only=True)

    class Meta(PageDetailSerializer.Meta):
        fields = [*PageDetailSerializer.Meta.fields, "unchanged", "claim_changes", "citation_matches", "created_sources",
                  "foreign_markup"]
        read_only_fields = fields


class PageWriteSerializer(JSONTypes, serializers.Serializer):
    """What an editor sends to create or edit a page; the service renders it and re-extracts its claims.
    The fields carry the rules of :class:`Page` and :class:`Revision` (lengths, characters, the slug's alphabet)."""

    read_only_names = frozenset(PageSavedSerializer.Meta.fields)

    slug = serializers.CharField(max_length=200, required=False, validators=[validate_page_slug],
                                 help_text=gettext_lazy("Made from the title when left out; stored lower-cased, as a wiki link finds it."))
    title = serializers.CharField(max_length=300, validators=[validate_line])
    summary = serializers.CharField(allow_blank=True, required=False, max_length=MAX_PAGE_SUMMARY_CHARS,
                                    validators=[validate_text])
    body = serializers.CharField(allow_blank=True, trim_whitespace=False, validators=[validate_text, validate_no_conflict_markers],
                                 help_text=gettext_lazy("Markdown; see the limits in the README (size, nesting, markup per paragraph)."))
    comment = serializers.CharField(max_length=500, allow_blank=True, required=False,
                                    validators=[validate_optional_line])
    base_revision = serializers.IntegerField(min_value=1, required=False, allow_null=True,
                                             help_text=gettext_lazy("The revision you started from; a later save by someone else answers 409."))
    new_works = serializers.ListField(
        child=serializers.CharField(max_length=MAX_TITLE_LENGTH), required=False, default=list, max_length=2000,
        help_text=gettext_lazy("Cited titles to make new works although close to an existing one (see citation_matches)."))

    def validate_slug(self, slug: str) -> str:
        slug = normalize_page_slug(slug)
        # Lower-casing can make a character the pattern does not hold (İ → i̇).
        validate_page_slug(slug)
        validate_lowercase(slug)
        return slug

    def validate_body(self, body: str) -> str:
        limit = settings.WIKI_MAX_BODY_CHARS
        if len(body) > limit:
            raise serializers.ValidationError(
                gettext("The text is %(length)s characters long; the limit is %(limit)s.") % {"length": grouped(len(body)), "limit": grouped(limit)},
                code="max_length")
        return body


class PageEditSerializer(PageWriteSerializer):
    """A new revision of a page. Its address stays: a ``slug`` other than the page's is refused, as the edit form
    has no address field (create the page anew at the other address instead)."""

    # The page's own slug is let through (to_internal_value refuses another).
    tolerated_names = frozenset({"slug"})

    page_id = serializers.IntegerField(
        min_value=1, required=False, allow_null=True,
        help_text=gettext_lazy("The page's id as read (`id`): when the page at this address is another one (the page read was moved "
                               "or deleted since, and a page was created here), 409 `other_page` and nothing is written."))
    confirm_blank = serializers.BooleanField(
        required=False, default=False,
        help_text=gettext_lazy("Save all the same an edit that leaves a page with text without any (nothing but whitespace): "
                               "without it, such an edit is refused with 400 `blanking` and nothing is saved."))

    def get_fields(self) -> dict[str, serializers.Field]:
        fields = super().get_fields()
        del fields["slug"]
        return fields

    def to_internal_value(self, data: object) -> object:
        page = self.instance
        if isinstance(data, Mapping) and "slug" in data and page is not None and data["slug"] != page.slug:
            raise serializers.ValidationError({"slug": [ErrorDetail(
                gettext("A page's address cannot be changed by an edit; create a page at the new address instead."),
                code="read_only")]})
        return super().to_internal_value(data)


class RevisionSerializer(serializers.ModelSerializer):
    author = serializers.CharField(source="author.get_username", read_only=True, allow_null=True, default=None)
    minor = serializers.BooleanField(read_only=True, help_text=gettext_lazy("Marked by its editor as a minor edit (a typo, formatting, "
                                                                             "a small rewording); a page's first revision never is."))

    class Meta:
        model = Revision
        fields = ["number", "title", "comment", "author", "size", "size_delta", "minor", "created_at"]
        read_only_fields = fields


class RevisionDetailSerializer(RevisionSerializer):
    class Meta(RevisionSerializer.Meta):
        fields = [*RevisionSerializer.Meta.fields, "summary", "body"]
        read_only_fields = fields


class PageMoveSerializer(JSONTypes, serializers.Serializer):
    """Where a page moves, under which title, and why; the service refuses an address that is taken, reserved or the
    page's own when the title is its own too."""

    slug = serializers.CharField(max_length=200, validators=[validate_page_slug], required=False, allow_blank=True,
                                 default="",
                                 help_text=gettext_lazy("The new address, stored lower-cased; the former one keeps leading to the page. "
                                                        "Left out, it is made from the new `title`, as a new page's is."))
    title = serializers.CharField(max_length=300, validators=[validate_line], required=False, allow_blank=True,
                                  default="",
                                  help_text=gettext_lazy("The new title, saved as a revision whose history entry says "
                                                         "`Title: old → new`; the former title keeps leading to the page. Left out, "
                                                         "the title stays."))
    reason = serializers.CharField(max_length=500, allow_blank=True, required=False, default="",
                                   validators=[validate_optional_line], help_text=gettext_lazy("Shown in the changes feed."))
    page_id = serializers.IntegerField(
        min_value=1, required=False, allow_null=True,
        help_text=gettext_lazy("The page's id as read (`id`): when the page at this address is another one (the page read was moved "
                               "or deleted since, and a page was created here), 409 `other_page` and nothing is written."))
    take_over = serializers.BooleanField(required=False, default=False,
                                         help_text=gettext_lazy("Move to a former address of another page all the same: the links "
                                                                "naming it then lead to this page (without it, 400 `former_address`)."))
