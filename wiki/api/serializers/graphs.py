from __future__ import annotations

from django.core.validators import RegexValidator
from django.utils.text import format_lazy
from django.utils.translation import gettext, gettext_lazy
from rest_framework import serializers

from wiki.graph import EdgeType
from wiki.graph.build import MAP_EXPORT_LIMIT, MAP_EXPORT_MAX
from wiki.graph.forms import MAX_WORKS
from wiki.graph.nodes import EDGE_LABELS, NODE_KINDS
from wiki.models.classifications import MECHANISM_CHOICES, VERDICT_CHOICES
from wiki.text.lists import joined

EDGE_TYPE_CHOICES = [(t.value, EDGE_LABELS[t]) for t in EdgeType]
_WORK = r"[-a-zA-Z0-9_]+(:[-a-zA-Z0-9_]+)?"
_EDGE = "(" + "|".join(t.value for t in EdgeType) + ")"
EDGE_TYPES_PATTERN = rf"^{_EDGE}(,{_EDGE})*$"
NODE_PATTERN = r"^(" + "|".join(NODE_KINDS) + r"):[\s\S]+$"
WORKS_PATTERN = rf"^{_WORK}(,{_WORK}){{1,{MAX_WORKS - 1}}}$"


class ContrastGraphParamsSerializer(serializers.Serializer):
    works = serializers.CharField(
        max_length=1000,
        validators=[RegexValidator(WORKS_PATTERN, format_lazy(gettext_lazy("Name 2 to {count} works separated by commas."),
                                                            count=MAX_WORKS), code="invalid")],
        help_text=format_lazy(gettext_lazy("Two to {count} comma-separated works: source slugs, or `source:component` "
                                           "(shepherd:tree-grpo); case-insensitive, a repeated work counts once."),
                              count=MAX_WORKS),
    )

    def validate_works(self, value: str) -> list[str]:
        # Slugs are lower case; the browser's contrast view reads them the same way.
        works = list(dict.fromkeys(value.lower().split(",")))
        if len(works) < 2:
            raise serializers.ValidationError(
                gettext("Name 2 to %(count)d different works separated by commas.") % {"count": MAX_WORKS}, code="too_few")
        return works


class MapGraphParamsSerializer(serializers.Serializer):
    mechanism = serializers.ChoiceField(choices=MECHANISM_CHOICES, required=False,
                                        help_text="Only works classified so, and the works their contrasts set them against.")
    verdict = serializers.ChoiceField(choices=VERDICT_CHOICES, required=False,
                                      help_text="Only works judged so, and the works their contrasts set them against.")
    limit = serializers.IntegerField(min_value=1, max_value=MAP_EXPORT_MAX, default=MAP_EXPORT_LIMIT,
                                     help_text=format_lazy(gettext_lazy(
                                         "At most this many of the filter's works and components (those in contrasts "
                                         "first, then by name), and at most this many contrasts (the newest first); "
                                         "{default} unless asked, up to {most}. `summary` says how many there are and "
                                         "how many the answer holds."), default=MAP_EXPORT_LIMIT, most=MAP_EXPORT_MAX))


class LocalGraphParamsSerializer(serializers.Serializer):
    node = serializers.CharField(max_length=300, trim_whitespace=False,
                                 validators=[RegexValidator(NODE_PATTERN, gettext_lazy("Name a node as kind:key, e.g. source:skillforge."),
                                                            code="invalid")],
                                 help_text=gettext_lazy("The centre: page:agentic-rl, source:skillforge, "
                                 "component:shepherd/tree-grpo, claim:12, mechanism:policy_gradient, question:3."))
    depth = serializers.IntegerField(min_value=1, max_value=2, default=1, help_text=gettext_lazy("Steps from the centre."))
    edge_types = serializers.CharField(required=False, max_length=300,
                                       validators=[RegexValidator(EDGE_TYPES_PATTERN, gettext_lazy("Unknown edge type."), code="invalid_choice")],
                                       help_text=format_lazy(gettext_lazy("Comma-separated edge types to follow (all when "
                                                                          "left out): {types}."),
                                                             types=", ".join(t.value for t in EdgeType)))

    def validate_edge_types(self, value: str) -> list[str]:
        types = [part.strip() for part in value.split(",") if part.strip()]
        unknown = sorted(set(types) - {t.value for t in EdgeType})
        if unknown:
            raise serializers.ValidationError(gettext("Unknown edge types: %(types)s.") % {"types": joined(unknown)}, code="invalid_choice")
        return types


class GraphNodeSerializer(serializers.Serializer):
    id = serializers.CharField(help_text=gettext_lazy("kind:key, e.g. source:skillforge."))
    kind = serializers.ChoiceField(choices=[(k, k) for k in NODE_KINDS])
    label = serializers.CharField()  # type: ignore[assignment]  # a field named like Field.label
    url = serializers.CharField(help_text=gettext_lazy("The node in the browser."))
    mechanism = serializers.ChoiceField(choices=MECHANISM_CHOICES, allow_blank=True)
    verdict = serializers.ChoiceField(choices=VERDICT_CHOICES, allow_blank=True)
    drawn = serializers.BooleanField(allow_null=True, help_text=gettext_lazy(
        "Whether the browser's picture of this graph draws the node (at most 50 are drawn; the rest are named under "
        "it as left out). Given for contrast and local graphs; null in the map, whose summary says how much it holds."))


class GraphEdgeSerializer(serializers.Serializer):
    source = serializers.CharField(help_text=gettext_lazy("Id of the node the edge starts from."))  # type: ignore[assignment]  # named like Field.source
    target = serializers.CharField()
    type = serializers.ChoiceField(choices=EDGE_TYPE_CHOICES)
    label = serializers.CharField(allow_blank=True, help_text=  # type: ignore[assignment]  # named like Field.label
                                  gettext_lazy("Locator of a citation, axis of a contrast, …"))


class GraphSerializer(serializers.Serializer):
    """A graph as lists of nodes and directed edges."""

    center = serializers.CharField(allow_null=True, help_text=gettext_lazy("The centre of a local graph; null for a contrast graph."))
    subjects = serializers.ListField(child=serializers.CharField(), help_text=gettext_lazy("Node ids of the works set side by side (contrast graph)."))
    nodes = GraphNodeSerializer(many=True)
    edges = GraphEdgeSerializer(many=True)


class MapSummarySerializer(serializers.Serializer):
    total = serializers.IntegerField(help_text=gettext_lazy("Classified works and components the filter asks for."))
    drawn = serializers.IntegerField(help_text=gettext_lazy("Of those, how many the map holds (those in contrasts first)."))
    contrasts = serializers.IntegerField(help_text=gettext_lazy("Contrasts with a side among them."))
    contrasts_drawn = serializers.IntegerField(help_text=gettext_lazy("Of those, how many the map holds (the newest first)."))
    unclassified = serializers.IntegerField(help_text=gettext_lazy("Works nobody has classified yet (without a filter)."))
    limit = serializers.IntegerField(help_text=gettext_lazy("The `limit` the map was cut at: of works and components, and of contrasts."))
    cut = serializers.BooleanField(help_text=gettext_lazy("Whether the map leaves out works or contrasts of the filter's (a larger "
                                   "`limit` holds more)."))
    note = serializers.CharField(help_text=gettext_lazy("What the map holds and what it leaves out, in words, in the reader's language."))


class MapGraphSerializer(serializers.Serializer):
    """The map of works: each joined to its mechanism, with the contrasts between them, and how much it leaves out."""

    nodes = GraphNodeSerializer(many=True)
    edges = GraphEdgeSerializer(many=True)
    summary = MapSummarySerializer()
