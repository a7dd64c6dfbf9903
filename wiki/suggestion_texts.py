"""What the classifier reads about a work: its abstract, then the current claims citing it or about it.

Never the editors' notes (see ``wiki.suggestions``). A card shows only the first of the texts read
(:func:`text_excerpt`), and a stored suggestion is known by the digest of what it read (:func:`suggestion_digest`).
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from wiki.models import Citation, Claim, Source


def texts_about(source_ids: Iterable[int] | None) -> dict[int, list[str]]:
    """The texts of current claims (``Claim.objects.current()``: not orphaned, on a page not deleted) citing or about
    each source (every source with ``None``), in page order (three queries).

    A claim that is only *about* a work (say, the other side of a contrast) counts when it names
    the work; otherwise its sentences describe something else.
    """
    ids = None if source_ids is None else list(source_ids)
    chosen = {} if ids is None else {"source_id__in": ids}
    sources = Source.objects.all() if ids is None else Source.objects.filter(pk__in=ids)
    names = {pk: name.casefold() for pk, name in sources.values_list("pk", "short_name")}
    texts: dict[int, dict[int, str]] = defaultdict(dict)
    current = {"claim__is_orphaned": False, "claim__page__deleted_at__isnull": True}
    citing = (
        Citation.objects.filter(**current, **chosen)
        .order_by("claim__page_id", "claim__position")
        .values_list("source_id", "claim_id", "claim__text")
    )
    about = (
        Claim.about.through.objects.filter(**current, **chosen)
        .order_by("claim__page_id", "claim__position")
        .values_list("source_id", "claim_id", "claim__text")
    )
    for source_id, claim_id, text in citing:
        texts[source_id][claim_id] = text
    for source_id, claim_id, text in about:
        if names.get(source_id, "") in text.casefold():
            texts[source_id][claim_id] = text
    return {source_id: list(by_claim.values()) for source_id, by_claim in texts.items()}


def suggestion_text(source: Source, claim_texts: Sequence[str]) -> str:
    """What the classifier reads about ``source``: its abstract, then the claims (never the notes)."""
    return joined_text(source.abstract, claim_texts)


def joined_text(abstract: str, claim_texts: Sequence[str]) -> str:
    """An abstract and claim texts as the classifier reads them, the empty ones left out."""
    return "\n".join(_parts(abstract, claim_texts))


def _parts(abstract: str, claim_texts: Sequence[str]) -> list[str]:
    return [part for part in [abstract, *claim_texts] if part.strip()]


# How many of the texts a suggestion read (the abstract, then each claim) a card shows, highlighted: a work cited by
# thousands of claims would otherwise print every one of them, megabytes, on its page.
SHOWN_TEXTS = 5


@dataclass(frozen=True)
class Excerpt:
    """Where the first ``SHOWN_TEXTS`` texts a suggestion read end in its text, and how many texts come after."""

    end: int
    not_shown: int


def text_excerpt(source: Source, claim_texts: Sequence[str]) -> Excerpt:
    """The part of :func:`suggestion_text` a card shows: the abstract and the first claims, whole."""
    parts = _parts(source.abstract, claim_texts)
    shown = parts[:SHOWN_TEXTS]
    return Excerpt(end=sum(len(part) for part in shown) + max(len(shown) - 1, 0), not_shown=len(parts) - len(shown))


def suggestion_digest(subject: str, text: str) -> str:
    """The SHA-256 of what the classifier reads: the work (or component) it judges, and the text."""
    return hashlib.sha256(f"{subject}\0{text}".encode()).hexdigest()
