from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy
from rest_framework import serializers

from wiki.api.serializers.json_types import JSONTypes
from wiki.api.serializers.links import BrowserURLField
from wiki.models import Citation, Claim, ClaimRevision, ClaimStatus, OpenQuestion, Page, PageRedirect, Source
from wiki.text.claim_matching import Outcome


class CitationSerializer(serializers.ModelSerializer):
    source: serializers.SlugRelatedField[Source] = serializers.SlugRelatedField(  # type: ignore[assignment]  # a field named like Field.source
        slug_field="slug", read_only=True)
    source_name = serializers.CharField(source="source.short_name", read_only=True)

    class Meta:
        model = Citation
        fields = ["source", "source_name", "locator", "kind"]
        read_only_fields = fields


class ClaimSerializer(JSONTypes, serializers.ModelSerializer):
    """A statement on a page with its citations (source + locator). Text and citations come from the
    page's Markdown, so only ``status`` is written here; edit the page to change the rest."""

    page: serializers.SlugRelatedField[Page] = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    page_title = serializers.CharField(source="page.title", read_only=True)
    citations = CitationSerializer(many=True, read_only=True)
    about: serializers.SlugRelatedField[Source] = serializers.SlugRelatedField(slug_field="slug", many=True, read_only=True)
    html_url = BrowserURLField()

    class Meta:
        model = Claim
        fields = ["id", "page", "page_title", "section", "anchor", "text", "status", "is_orphaned", "retired_at",
                  "retired_reason", "citations", "about", "created_at", "updated_at", "html_url"]
        read_only_fields = [f for f in fields if f != "status"]


# Named in ENUM_NAME_OVERRIDES (ClaimChangeOutcomeEnum), as a citation match's ``outcome`` is OutcomeEnum.
CLAIM_CHANGE_OUTCOMES = [(outcome.value, outcome.value) for outcome in Outcome]


class ClaimChangeSerializer(serializers.Serializer):
    """What a save did to one claim: ``outcome`` is kept, reworded, split, merged, restored, new or orphaned."""

    outcome = serializers.ChoiceField(choices=CLAIM_CHANGE_OUTCOMES)
    claim = serializers.IntegerField(source="claim_id", allow_null=True)
    text = serializers.CharField()
    previous_text = serializers.CharField(help_text=gettext_lazy("The sentence before the save; empty for a new claim."))
    related = serializers.IntegerField(source="related_id", allow_null=True,
                                       help_text=gettext_lazy("Split: the claim this one was split from. Merged: the claim that kept the sentence."))
    status = serializers.ChoiceField(choices=ClaimStatus.choices)
    previous_status = serializers.ChoiceField(choices=ClaimStatus.choices, allow_blank=True,
                                              help_text="The status before the save; empty for a new claim.")
    reason = serializers.CharField()
    similarity = serializers.FloatField(allow_null=True)
    diff = serializers.ListField(child=serializers.ListField(child=serializers.CharField()),
                                 help_text=gettext_lazy('Per-character diff: ["equal" | "delete" | "insert", text] parts; a claim '
                                                        'orphaned or merged away has its last text deleted.'))


class ClaimReportSerializer(serializers.Serializer):
    kept = serializers.IntegerField(help_text=gettext_lazy("Claims whose sentence did not change."))
    summary = serializers.CharField()
    changes = ClaimChangeSerializer(many=True)


class ClaimRevisionSerializer(serializers.ModelSerializer):
    page_revision = serializers.IntegerField(source="page_revision.number", allow_null=True, default=None, read_only=True)
    related_claim = serializers.IntegerField(source="related_claim_id", allow_null=True, read_only=True)
    user = serializers.CharField(source="user.get_username", allow_null=True, default=None, read_only=True)
    # Empty for the revision that created the claim: read-only model fields lose allow_blank, so it is declared.
    previous_status = serializers.ChoiceField(choices=ClaimStatus.choices, allow_blank=True, read_only=True,
                                              help_text="The status before this change; empty when the claim was created.")
    reason = serializers.CharField(source="reason_for_reader", read_only=True,
                                   help_text=gettext_lazy("Why, in the language the request asks for (a reason the wiki wrote)."))

    class Meta:
        model = ClaimRevision
        fields = ["kind", "page_revision", "text", "previous_text", "status", "previous_status", "reason",
                  "related_claim", "similarity", "user", "created_at"]
        read_only_fields = fields


class ClaimReattachSerializer(JSONTypes, serializers.Serializer):
    """Re-attaching an orphaned claim to the sentence another claim now holds."""

    # Any claim: one that is not a sentence on a page now (orphaned, retired, on a deleted page) is refused by the
    # service, which says which.
    sentence = serializers.PrimaryKeyRelatedField(queryset=Claim.objects.only("id"),
                                                  help_text=gettext_lazy("The id of the claim now holding the sentence (any page)."))


class ClaimRetireSerializer(JSONTypes, serializers.Serializer):
    """Retiring an orphaned claim, with the reason."""

    reason = serializers.CharField(max_length=500)


class PageSlugField(serializers.SlugRelatedField[Page]):
    """A live page by its slug, or by an address it had before it was moved (which leads to it, as its URL does)."""

    default_error_messages = {"does_not_exist": gettext_lazy("No page has the address “{value}”."),
                              "invalid": gettext_lazy("Give the page's slug as text.")}

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(slug_field="slug", queryset=Page.objects.all(), **kwargs)

    def to_internal_value(self, data: Any) -> Page:
        if not isinstance(data, str):
            self.fail("invalid")
        slug = PageRedirect.objects.page_slug_at(data) if not Page.objects.filter(slug=data).exists() else data
        return super().to_internal_value(slug or data)


class QuestionSerializer(JSONTypes, serializers.ModelSerializer):
    """An open question: its page, the claims and works it concerns, status, priority, assignee, what would resolve
    it and the claim that answered it."""

    page = PageSlugField(allow_null=True, required=False,
                         help_text=gettext_lazy("The page's slug; an address it had before a move names it too."))
    claims = serializers.PrimaryKeyRelatedField(many=True, queryset=Claim.objects.all(), required=False)
    sources = serializers.SlugRelatedField(slug_field="slug", many=True, queryset=Source.objects.all(), required=False)
    answer_claim = serializers.PrimaryKeyRelatedField(queryset=Claim.objects.all(), allow_null=True, required=False)
    assignee = serializers.CharField(source="assignee.get_username", read_only=True, allow_null=True, default=None)
    html_url = BrowserURLField()

    class Meta:
        model = OpenQuestion
        fields = ["id", "title", "text", "status", "priority", "page", "assignee", "resolution_criteria", "claims",
                  "sources", "answer_claim", "created_at", "updated_at", "html_url"]
        read_only_fields = ["id", "assignee", "created_at", "updated_at"]

    def validate(self, attrs: dict[str, object]) -> dict[str, object]:
        status = attrs.get("status", getattr(self.instance, "status", None))
        answer = attrs["answer_claim"] if "answer_claim" in attrs else getattr(self.instance, "answer_claim", None)
        if status == "answered" and answer is None:
            raise serializers.ValidationError(
                {"answer_claim": [gettext_lazy("An answered question needs the claim that answers it.")]}, code="required")
        return attrs
