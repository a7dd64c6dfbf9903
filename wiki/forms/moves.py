from __future__ import annotations

import json

from django import forms
from django.utils.translation import gettext_lazy as _

from wiki.forms.opened import OPENED, OpenedField
from wiki.models import Page
from wiki.models.rules import max_length, validate_line
from wiki.services.page_moves import MAX_REASON_CHARS


class PageMoveForm(forms.Form):
    """Where a page moves, under which title, and why; what the address and title may be is the service's to say
    (:func:`page_move`)."""

    title = forms.CharField(label=_("New title"), max_length=max_length(Page, "title"), required=False,
                            validators=[validate_line],
                            help_text=_("The page's title now, to change if you like; a new one is saved as a revision, "
                                        "and the former title keeps leading here."))
    slug = forms.CharField(label=_("New address"), max_length=max_length(Page, "slug"), required=False,
                           help_text=_("Left empty, it is made from the new title, as a new page's is: letters in lower "
                                       "case, a hyphen for each space, Chinese characters as they are (“GRPO "
                                       "在智能体训练中的应用” gives /wiki/grpo-在智能体训练中的应用/, where the link "
                                       "[[GRPO 在智能体训练中的应用]] leads). Type the present address to keep it, or "
                                       "another: letters in lower case, Chinese characters, digits and hyphens, as in "
                                       "/wiki/agentic-rl/ or /wiki/信用分配/. The former address keeps leading here, and "
                                       "so do links naming it."))
    reason = forms.CharField(label=_("Why is it moved?"), max_length=MAX_REASON_CHARS, required=False,
                             help_text=_("Optional; shown in the changes feed."))
    # Asked only when the address is a former address of another page (see :meth:`ask_to_take_over`).
    take_over = forms.BooleanField(label=_("Take the address over"), required=False, widget=forms.HiddenInput,
                                   help_text=_("The links naming it will lead to this page instead."))
    # The title as the form showed it: a page retitled since is not retitled back unseen.
    opened = OpenedField()
    # The page the form was opened on, which it moves wherever it is now: never a page created meanwhile at the
    # address it was opened at.
    page_id = forms.IntegerField(required=False, min_value=1, widget=forms.HiddenInput)

    @staticmethod
    def values_of(page: Page) -> dict[str, str]:
        """What the form shows of ``page`` and a save meanwhile can change under it: its title."""
        return {"title": page.title}

    def opened_title(self) -> str | None:
        """The page's title when the form was opened, None when the form does not say."""
        try:
            opened = json.loads(self.data.get(OPENED) or "{}")
        except ValueError:
            return None
        title = opened.get("title") if isinstance(opened, dict) else None
        return title if isinstance(title, str) else None

    def ask_to_take_over(self) -> None:
        """Shows the confirmation the service asked for (a refusal coded ``former_address``)."""
        self.fields["take_over"].widget = forms.CheckboxInput()
