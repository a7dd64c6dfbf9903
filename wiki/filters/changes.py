"""The filters of recent changes (/changes/) and of a reader's watchlist (/watchlist/): one FilterSet, which the
watchlist's extends. Their form is written out by ``includes/change_filters.html``; each choice stays in the address
from page to page."""

from __future__ import annotations

from datetime import timedelta
from typing import Any, cast
from urllib.parse import urlencode

import django_filters
from django import forms
from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from wiki.forms.rendering import without_controls
from wiki.models import ChangeEvent
from wiki.models.changes import ChangeEventQuerySet
from wiki.roles import Account, account_named

# How many days back the list can be limited to, as a wiki's recent changes offer.
DAYS_CHOICES = (1, 3, 7, 30)
# How much of a value not offered its message repeats.
SHOWN_VALUE_CHARS = 40


class ListedChoiceField(forms.ChoiceField):
    """One of the values the list offers; another is refused with a message naming it (its first characters)."""

    def validate(self, value: Any) -> None:
        if value in self.empty_values or self.valid_value(value):
            super().validate(value)
            return
        raise ValidationError(self.error_messages["invalid_choice"], code="invalid_choice",
                              params={"value": str(value)[:SHOWN_VALUE_CHARS]})


class AccountNameField(forms.Field):
    """An account, by its username as typed (trimmed; whatever its case, see ``account_named``); a name no account has
    is refused."""

    def clean(self, value: Any) -> Account | None:
        name = str(value or "").strip()
        if not name:
            return None
        found = account_named(name)
        if found is None:
            raise ValidationError(_("No account is called “%(name)s”."), code="unknown_account", params={"name": without_controls(name)})
        return found


class TickField(forms.Field):
    """A box to tick: ticked when sent as 1, not otherwise."""

    def clean(self, value: Any) -> bool:
        return bool(value == "1")


class ListedChoiceFilter(django_filters.Filter):
    field_class = ListedChoiceField


class AccountFilter(django_filters.Filter):
    field_class = AccountNameField


class TickFilter(django_filters.Filter):
    field_class = TickField


# The filters of recent changes its Atom feed takes too, in the order its address writes them.
FEED_FILTERS = ("kind", "user", "days", "hideminor")


class ChangeFilter(django_filters.FilterSet):
    """Recent changes of one kind, by one account, over the last days, without minor edits (``hideminor``), and for a
    logged-in reader without their own edits (``hidemine``, not offered to anyone else: asked anonymously, it is
    ignored)."""

    kind = ListedChoiceFilter(
        choices=ChangeEvent.Kind.choices, label=_("Kind"),
        error_messages={"invalid_choice": _("“%(value)s” is not a kind of change; choose one from the list.")})
    user = AccountFilter(label=_("Who"), method="filter_user")
    days = ListedChoiceFilter(
        choices=[(str(n), n) for n in DAYS_CHOICES], label=_("Period"),
        method="filter_days",
        error_messages={"invalid_choice": _("“%(value)s” is not a number of days to show; choose one from the list.")})
    hidemine = TickFilter(label=_("Hide my edits"), method="filter_hidemine")
    hideminor = TickFilter(label=_("Hide minor edits"), method="filter_hideminor")

    class Meta:
        model = ChangeEvent
        fields = ["kind", "user", "days", "hidemine", "hideminor"]

    # The filters that are boxes to tick (the others are lists, and a name).
    ticks: tuple[str, ...] = ("hidemine", "hideminor")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self._reader_id() is None:
            del self.filters["hidemine"]

    def _reader_id(self) -> int | None:
        user = getattr(self.request, "user", None)
        return user.pk if user is not None and user.is_authenticated else None

    def filter_user(self, queryset: ChangeEventQuerySet, name: str, value: Account) -> ChangeEventQuerySet:
        return queryset.filter(user_id=value.pk)

    def filter_days(self, queryset: ChangeEventQuerySet, name: str, value: str) -> ChangeEventQuerySet:
        return queryset.filter(created_at__gte=timezone.now() - timedelta(days=int(value)))

    def feed_query(self, *, leaving_out: tuple[str, ...] = ()) -> str:
        """The filters the Atom feed of recent changes honours (all but ``hidemine``: a feed reader is no one), as sent
        and in a fixed order, for its address, but those ``leaving_out`` names; empty when none is set."""
        sent = [(name, str((self.data or {}).get(name, "")).strip()) for name in FEED_FILTERS if name not in leaving_out]
        return urlencode([(name, value) for name, value in sent if value])

    def qualifiers(self) -> list[str]:
        """What the filters the feed honours keep, as words in the reader's language (the account aside), for its
        title; valid filters only."""
        cleaned = self.form.cleaned_data
        said = [str(ChangeEvent.Kind(cleaned["kind"]).label)] if cleaned.get("kind") else []
        if cleaned.get("days"):
            days = int(cleaned["days"])
            said.append(ngettext("last %(counter)s day", "last %(counter)s days", days) % {"counter": days})
        if cleaned.get("hideminor"):
            said.append(gettext("no minor edits"))
        return said

    @property
    def changes(self) -> ChangeEventQuerySet:
        """The changes the filters keep (``qs``), as the QuerySet they are."""
        return cast(ChangeEventQuerySet, self.qs)

    def filter_hideminor(self, queryset: ChangeEventQuerySet, name: str, value: bool) -> ChangeEventQuerySet:
        return queryset.exclude(minor=True) if value else queryset

    def filter_hidemine(self, queryset: ChangeEventQuerySet, name: str, value: bool) -> ChangeEventQuerySet:
        reader = self._reader_id()
        return queryset.exclude(user_id=reader) if value and reader is not None else queryset


class WatchlistFilter(ChangeFilter):
    """The watchlist's: those of recent changes but the account (the watchlist is the reader's own), and, after the
    others, only the latest change kept to each page, work, question, claim or other item (``latest``)."""

    latest = TickFilter(label=_("Only the latest change to each item"),
                                   method="filter_latest")

    ticks = (*ChangeFilter.ticks, "latest")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        del self.filters["user"]

    def filter_latest(self, queryset: ChangeEventQuerySet, name: str, value: bool) -> ChangeEventQuerySet:
        return queryset.latest_per_object() if value else queryset
