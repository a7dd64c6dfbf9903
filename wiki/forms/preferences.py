from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from wiki.preferences import time_zone_names


def _zone_label(name: str) -> str:
    offset = datetime.now(ZoneInfo(name)).strftime("%z")
    return f"{name} (UTC{offset[:3]}:{offset[3:]})"


def time_zone_choices() -> list[tuple[str, str]]:
    """Every zone a reader can choose, by name, each labelled with its offset from UTC now."""
    return [(name, _zone_label(name)) for name in sorted(time_zone_names())]


COLOUR_SCHEME_CHOICES = [("", _("As this device is set")), ("light", _("Light")), ("dark", _("Dark"))]


class PreferencesForm(forms.Form):
    language = forms.ChoiceField(label=_("Language"), choices=settings.LANGUAGES)
    time_zone = forms.ChoiceField(label=_("Time zone"), help_text=_("Times across the wiki are shown in this zone."))
    colour_scheme = forms.ChoiceField(label=_("Colours"), choices=COLOUR_SCHEME_CHOICES, required=False,
                                      help_text=_("Kept on this device only."))

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.fields["time_zone"].choices = time_zone_choices()  # type: ignore[attr-defined]
