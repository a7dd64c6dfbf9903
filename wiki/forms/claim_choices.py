"""A claim offered as a choice (a question's claims and answer, a classification's evidence)."""

from __future__ import annotations

from django.utils.translation import gettext, pgettext

from wiki.models import Claim
from wiki.text.spaces import excerpt

# How much of a claim's text its choice shows: cut at a sentence or a word (wiki.text.spaces.excerpt).
CLAIM_LABEL_CHARS = 90


def claim_label(claim: Claim) -> str:
    """A claim as a choice: its page and text (cut at a sentence or word), and whether it has left its page's text,
    with the reader's language's colon and brackets."""
    label = gettext("%(page)s: %(claim)s") % {"page": claim.page.title, "claim": excerpt(claim.text, CLAIM_LABEL_CHARS)}
    state = gettext("retired") if claim.is_retired else gettext("orphaned") if claim.is_orphaned else ""
    if not state:
        return label
    return f"{label}{pgettext('opening bracket', ' (')}{state}{pgettext('closing bracket', ')')}"
