from __future__ import annotations

from django.utils.translation import gettext_lazy
from rest_framework import serializers

from wiki.api.filters import YesNoParameter
from wiki.api.serializers.json_types import JSONTypes
from wiki.models.findings import MAX_REASON_CHARS
from wiki.reports.consistency import FINDING_KEY_PATTERN, FINDING_KINDS


class DismissalSerializer(serializers.Serializer):
    """Why an editor dismissed a finding, who and when; who is null for the wiki's own dismissals."""

    reason = serializers.CharField()
    dismissed_by = serializers.CharField(source="dismissed_by.username", allow_null=True, default=None)
    dismissed_at = serializers.DateTimeField()


class FindingSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=FINDING_KINDS)
    key = serializers.CharField(help_text=gettext_lazy("The objects the finding concerns; with kind, it names the finding."))
    subject = serializers.CharField()
    url = serializers.CharField(help_text=gettext_lazy("Where to look, in the wiki."))
    detail = serializers.CharField()
    dismissal = DismissalSerializer(allow_null=True, help_text=gettext_lazy("Null while the finding is open."))
    etag = serializers.CharField(help_text=gettext_lazy("The version of the finding's state (open, or this dismissal): send it as "
                                                        "If-Match with a dismissal or reopening, refused (412) when it changed since."))


class FindingDismissalSerializer(DismissalSerializer):
    """A dismissal as recorded; reopening stamps it instead of deleting it."""

    kind = serializers.ChoiceField(choices=FINDING_KINDS)
    key = serializers.CharField()
    subject = serializers.CharField()
    reopened_by = serializers.CharField(source="reopened_by.username", allow_null=True, default=None)
    reopened_at = serializers.DateTimeField(allow_null=True)


class FindingListParamsSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=FINDING_KINDS, required=False, help_text="Only the findings of this kind.")
    dismissed = YesNoParameter(required=False, help_text=gettext_lazy("true: only dismissed findings; false: only open ones (`1` and "
                                                                      "`0` are read as `true` and `false`)."))


class FindingRefSerializer(JSONTypes, serializers.Serializer):
    """A finding of the consistency report, named by its kind and key."""

    kind = serializers.ChoiceField(choices=FINDING_KINDS)
    key = serializers.RegexField(FINDING_KEY_PATTERN, max_length=200)


class FindingDismissRequestSerializer(FindingRefSerializer):
    reason = serializers.CharField(max_length=MAX_REASON_CHARS, help_text=gettext_lazy("Why the finding is not a mistake."))
