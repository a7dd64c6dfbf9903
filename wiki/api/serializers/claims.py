from __future__ import annotations

from rest_framework import serializers

from wiki.models import Citation, Claim, OpenQuestion, Page, Source


class CitationSerializer(serializers.ModelSerializer):
    source = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    source_name = serializers.CharField(source="source.short_name", read_only=True)

    class Meta:
        model = Citation
        fields = ["source", "source_name", "locator", "kind"]
        read_only_fields = fields


class ClaimSerializer(serializers.ModelSerializer):
    """A statement on a page with its citations (source + locator). Text and citations come from the
    page's Markdown, so only ``status`` is written here; edit the page to change the rest."""

    page = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    page_title = serializers.CharField(source="page.title", read_only=True)
    citations = CitationSerializer(many=True, read_only=True)
    about = serializers.SlugRelatedField(slug_field="slug", many=True, read_only=True)
    html_url = serializers.CharField(source="get_absolute_url", read_only=True)

    class Meta:
        model = Claim
        fields = ["id", "page", "page_title", "section", "anchor", "text", "status", "is_orphaned", "citations",
                  "about", "created_at", "updated_at", "html_url"]
        read_only_fields = [f for f in fields if f != "status"]


class QuestionSerializer(serializers.ModelSerializer):
    page = serializers.SlugRelatedField(slug_field="slug", queryset=Page.objects.all(), allow_null=True, required=False)
    claims = serializers.PrimaryKeyRelatedField(many=True, queryset=Claim.objects.all(), required=False)
    sources = serializers.SlugRelatedField(slug_field="slug", many=True, queryset=Source.objects.all(), required=False)
    answer_claim = serializers.PrimaryKeyRelatedField(queryset=Claim.objects.all(), allow_null=True, required=False)
    assignee = serializers.CharField(source="assignee.get_username", read_only=True, allow_null=True, default=None)
    html_url = serializers.CharField(source="get_absolute_url", read_only=True)

    class Meta:
        model = OpenQuestion
        fields = ["id", "title", "text", "status", "priority", "page", "assignee", "resolution_criteria", "claims",
                  "sources", "answer_claim", "created_at", "updated_at", "html_url"]
        read_only_fields = ["id", "assignee", "created_at", "updated_at"]

    def validate(self, attrs: dict[str, object]) -> dict[str, object]:
        status = attrs.get("status", getattr(self.instance, "status", None))
        answer = attrs["answer_claim"] if "answer_claim" in attrs else getattr(self.instance, "answer_claim", None)
        if status == "answered" and answer is None:
            raise serializers.ValidationError({"answer_claim": ["An answered question needs the claim that answers it."]}, code="required")
        return attrs
