"""A reader's watchlist: the changes to what they watch, and whether they watch one item."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from wiki.api.serializers.json_types import JSONTypes
from wiki.change_summaries import summary_for_reader
from wiki.models import ChangeEvent


class ChangeSerializer(serializers.Serializer):
    """One entry of recent changes, as /changes/ and the watchlist list it."""

    id = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=ChangeEvent.Kind.choices, help_text="What kind of object changed.")
    action = serializers.ChoiceField(choices=ChangeEvent.Action.choices)
    object_id = serializers.IntegerField(help_text=_("The id of the object that changed (of its kind)."))
    label = serializers.CharField(  # type: ignore[assignment]  # a field named like Field.label
        help_text=_("The object's name when it changed."))
    url = serializers.CharField(allow_blank=True, help_text=_("Where the object is read in the browser (a path); may be empty."))
    summary = serializers.SerializerMethodField(help_text=_("The editor's summary, or the wiki's, in the reader's language."))
    size_delta = serializers.IntegerField(allow_null=True, help_text=_("Characters added (or removed, negative) to a page."))
    minor = serializers.BooleanField(help_text=_("A page's edit its editor marked minor."))
    user = serializers.CharField(source="user.username", allow_null=True, default=None,
                                 help_text=_("Who made the change; null for imports."))
    created_at = serializers.DateTimeField()

    def get_summary(self, event: ChangeEvent) -> str:
        return summary_for_reader(event)


class WatchStateSerializer(serializers.Serializer):
    watching = serializers.BooleanField(help_text=_("Whether the item is on your watchlist (after the request)."))


class WatchSerializer(JSONTypes, serializers.Serializer):
    """What a PUT of a watch may send: nothing, or the watch as a GET reads it. Unwatching is a DELETE: a PUT saying
    ``false`` would otherwise be answered as the watch it makes."""

    watching = serializers.BooleanField(required=False, help_text=_("true, or leave it out: DELETE unwatches."))

    def validate_watching(self, value: bool) -> bool:
        if not value:
            raise serializers.ValidationError(_("A PUT watches the item: send DELETE to unwatch it."), code="invalid")
        return value
