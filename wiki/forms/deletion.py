from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from wiki.services.deletion import MAX_REASON_CHARS


class DeletionForm(forms.Form):
    reason = forms.CharField(label=_("Why is it deleted?"), max_length=MAX_REASON_CHARS,
                             help_text=_("Kept with the deletion, shown in the changes feed and the list of deleted pages and works."))
