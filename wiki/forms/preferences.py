from __future__ import annotations

from datetime import datetime
from functools import lru_cache
from zoneinfo import ZoneInfo

from babel.dates import get_timezone_location
from django import forms
from django.conf import settings
from django.utils.translation import get_language, gettext, to_locale
from django.utils.translation import gettext_lazy as _

from wiki.preferences import time_zone_names


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


def time_zone_choices() -> list[tuple[str, str]]:
    """Every zone a reader can choose, by name, each labelled with its place in the reader's language and its offset
    from UTC now."""
    places = _places(get_language() or settings.LANGUAGE_CODE)
    return [(name, _zone_label(name, places.get(name))) for name in sorted(time_zone_names())]


COLOUR_SCHEME_CHOICES = [("", _("As this device is set")), ("light", _("Light")), ("dark", _("Dark"))]


class PreferencesForm(forms.Form):
    language = forms.ChoiceField(label=_("Language"), choices=settings.LANGUAGES)
    time_zone = forms.ChoiceField(label=_("Time zone"), help_text=_("Times across the wiki are shown in this zone."))
    colour_scheme = forms.ChoiceField(label=_("Colours"), choices=COLOUR_SCHEME_CHOICES, required=False,
                                      help_text=_("Kept on this device only."))

    watch_edits = forms.BooleanField(label=_("Add pages I edit to my watchlist"), required=False,
                                     help_text=_("A page you create or edit is watched for you."))

    def __init__(self, *args: object, reader: bool = False, **kwargs: object) -> None:
        """``reader``: a logged-in reader, whose profile keeps whether their edits watch what they edit."""
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.fields["time_zone"].choices = time_zone_choices()  # type: ignore[attr-defined]
        if not reader:
            del self.fields["watch_edits"]
