from __future__ import annotations

from datetime import datetime
from functools import lru_cache
from zoneinfo import ZoneInfo

from babel.dates import get_timezone_location
from django import forms
from django.conf import settings
from django.utils.translation import get_language, gettext, to_locale
from django.utils.translation import gettext_lazy as _

from wiki.forms.widgets import ChoicesInTheirLanguage
from wiki.preferences import offered_time_zone_names, time_zone_names, valid_time_zone


@lru_cache(maxsize=8)
def _places(language: str) -> dict[str, str]:
    """Each zone's place in ``language`` (中国（上海）时间, Germany (Berlin) Time), by CLDR through Babel; none for
    the zones that name no place (Etc/GMT+1, UTC)."""
    locale = to_locale(language)
    places = {}
    for name in time_zone_names():
        if "/" in name and not name.startswith("Etc/"):
            try:
                places[name] = get_timezone_location(name, locale=locale)
            except (LookupError, ValueError):
                continue
    return places


def _zone_label(name: str, place: str | None) -> str:
    offset = datetime.now(ZoneInfo(name)).strftime("%z")
    utc = f"UTC{offset[:3]}:{offset[3:]}"
    if place is None:
        return gettext("%(zone)s (%(offset)s)") % {"zone": name, "offset": utc}
    return gettext("%(place)s (%(zone)s, %(offset)s)") % {"place": place, "zone": name, "offset": utc}


# The regions the zones are grouped by, the first part of their names.
REGIONS = {
    "Africa": _("Africa"), "America": _("Americas"), "Antarctica": _("Antarctica"), "Arctic": _("Arctic"),
    "Asia": _("Asia"), "Atlantic": _("Atlantic Ocean"), "Australia": _("Australia"), "Europe": _("Europe"),
    "Indian": _("Indian Ocean"), "Pacific": _("Pacific Ocean"),
}

ZoneChoices = list[tuple[str, str | list[tuple[str, str]]]]


def time_zone_choices(keep: str | None = None) -> ZoneChoices:
    """The zones a reader can choose (``offered_time_zone_names``), each labelled with its place in the reader's
    language and its offset from UTC now: UTC first, then the others grouped by region, by name within each.

    ``keep``: the zone the reader uses now, offered (beside UTC) even when it is an old name no longer listed (PRC),
    so that the form shows their choice and saving it changes nothing they did not change."""
    places = _places(get_language() or settings.LANGUAGE_CODE)
    names = set(offered_time_zone_names())
    kept = valid_time_zone(keep)
    regions: dict[str, list[tuple[str, str]]] = {}
    loose = []
    for name in sorted(names | ({kept} if kept else set())):
        choice = (name, _zone_label(name, places.get(name)))
        region = name.split("/")[0]
        if name in names and region in REGIONS:
            regions.setdefault(region, []).append(choice)
        else:
            loose.append(choice)
    return [*loose, *((str(REGIONS[region]), choices) for region, choices in regions.items())]


COLOUR_SCHEME_CHOICES = [("", _("As this device is set")), ("light", _("Light")), ("dark", _("Dark"))]


class PreferencesForm(forms.Form):
    language = forms.ChoiceField(label=_("Language"), choices=settings.LANGUAGES, widget=ChoicesInTheirLanguage)
    time_zone = forms.ChoiceField(label=_("Time zone"), help_text=_("Times across the wiki are shown in this zone."))
    colour_scheme = forms.ChoiceField(label=_("Colours"), choices=COLOUR_SCHEME_CHOICES, required=False,
                                      help_text=_("Kept on this device only."))

    watch_edits = forms.BooleanField(label=_("Add pages I edit to my watchlist"), required=False,
                                     help_text=_("A page you create or edit is watched for you."))

    def __init__(self, *args: object, reader: bool = False, **kwargs: object) -> None:
        """``reader``: a logged-in reader, whose profile keeps whether their edits watch what they edit."""
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.fields["time_zone"].choices = time_zone_choices(keep=self.initial.get("time_zone"))  # type: ignore[attr-defined]
        if not reader:
            del self.fields["watch_edits"]
