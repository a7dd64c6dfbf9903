"""A page's claims across a save: which sentence is which claim, what happens to their status, and the report.

``page_claims_plan`` says what a save would do (the preview shows it); ``page_claims_sync`` does it,
recording a :class:`ClaimRevision` for every claim the save changes. Both take a fixed number of
queries whatever the size of the page.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from wiki.change_summaries import Summary, reasons_for_reader, summary
from wiki.markdown import ClaimRef
from wiki.markdown.citations import CITATION_RE, find_citations
from wiki.models import Citation, Claim, ClaimRevision, ClaimStatus, OpenQuestion, Page, Revision, Source
from wiki.references.locators import locator_key
from wiki.roles import Account
from wiki.text.claim_matching import (
    Match,
    Outcome,
    Previous,
    Sentence,
    char_diff,
    edit_size,
    folded,
    is_small_edit,
    match_claims,
    meaning_changed,
    normalise,
)

SECTION_MAX = Claim._meta.get_field("section").max_length or 300
REASON_MAX = ClaimRevision._meta.get_field("reason").max_length or 500

# The history kind a save records for each outcome; a kept claim records nothing.
_KIND = {
    Outcome.REWORDED: ClaimRevision.Kind.REWORDED,
    Outcome.SPLIT: ClaimRevision.Kind.SPLIT,
    Outcome.RESTORED: ClaimRevision.Kind.RESTORED,
    Outcome.NEW: ClaimRevision.Kind.CREATED,
    Outcome.ORPHANED: ClaimRevision.Kind.ORPHANED,
    Outcome.MERGED: ClaimRevision.Kind.MERGED,
}
# Words for the report, in the order it lists them.
OUTCOME_ORDER = (Outcome.REWORDED, Outcome.SPLIT, Outcome.MERGED, Outcome.RESTORED, Outcome.NEW, Outcome.ORPHANED)
OUTCOME_LABELS = {
    Outcome.KEPT: _("kept"),
    Outcome.REWORDED: _("reworded"),
    Outcome.SPLIT: _("split"),
    Outcome.MERGED: _("merged"),
    Outcome.RESTORED: _("restored"),
    Outcome.NEW: _("new"),
    Outcome.ORPHANED: _("orphaned"),
}

# The outcomes that leave a claim without a sentence.
_GONE = (Outcome.ORPHANED.value, Outcome.MERGED.value)


def outcome_label(outcome: str) -> str:
    try:
        return str(OUTCOME_LABELS[Outcome(outcome)])
    except ValueError:
        return outcome


def status_label(status: str) -> str:
    try:
        return str(ClaimStatus(status).label)
    except ValueError:
        return status


def statement(text: str) -> str:
    """The sentence without its citations: what identity is judged on (a changed citation keeps the claim)."""
    return CITATION_RE.sub("", text).strip() or text


def _cited(title: str, locator: str, kind: str) -> tuple[str, str, str]:
    """A citation as compared: its title and locator read as search reads them (width, Traditional characters and case
    aside) without spacing, so that retyping ``SkillForge，§3`` as ``ＳｋｉｌｌＦｏｒｇｅ，§３`` changes no citation; the locator by
    what it points at (``pp.3-4`` is ``第3-4页``, :func:`locator_key`)."""
    return "".join(folded(title).split()), locator_key(folded(locator)), kind


def _written_in(text: str) -> list[tuple[str, str, str]]:
    refs, _ = find_citations(text)
    return [(title, ref.locator, ref.kind) for ref in refs for title in ref.titles]


def cited_in(text: str) -> tuple[tuple[str, str, str], ...]:
    """(title, locator, kind) of each citation written in a claim's text, in order, as compared (:func:`_cited`)."""
    return tuple(_cited(*citation) for citation in _written_in(text))


def _works_cited(citations: Iterable[tuple[str, str, str]], sources: Mapping[str, Source],
                 named: Mapping[str, int] | None = None) -> tuple[tuple[int, str, str, str], ...]:
    """(work, title, locator, kind) of each citation, in order: a title naming a work (``sources``, else the work's id
    in ``named``) is that work whatever name it is cited by (short name, title, arXiv ID), one naming none is compared
    as written (:func:`_cited`)."""
    out = []
    for title, locator, kind in citations:
        work = sources.get(title)
        pk = work.pk if work is not None else (named or {}).get(title)
        name, place, kind = _cited(title, locator, kind)
        out.append((pk, "", place, kind) if pk is not None else (0, name, place, kind))
    return tuple(out)


def citations_changed(old_text: str, ref: ClaimRef, sources: Mapping[str, Source],
                      named: Mapping[str, int] | None = None) -> bool:
    """Whether the sentence ``ref`` cites other works or locators than ``old_text`` did: the same work cited by another
    of its names (its short name, then its title or arXiv ID) is no change. ``named``: the work a title names when
    ``sources`` does not say (:func:`own_names`)."""
    return _works_cited(_written_in(old_text), sources, named) != _works_cited(
        ((c.title, c.locator, c.kind) for c in ref.citations), sources, named)


def own_names(claim: Claim) -> dict[str, int]:
    """The work each title an orphan's text cites named, read from the orphan's own citations (``cites``,
    ``ClaimQuerySet.for_matching``): the n-th title its text cites is its citation at position n, at the same locator
    and of the same kind. The page's latest text may cite that work by another name or not at all, so that the title
    the orphan wrote is no longer among those a save resolves; a current claim's titles are. No query."""
    stored = {entry["position"]: entry for entry in getattr(claim, "cites", None) or []}
    names: dict[str, int] = {}
    for position, (title, locator, kind) in enumerate(_written_in(claim.text)):
        entry = stored.get(position)
        if entry is not None and entry["kind"] == kind and _cited(title, entry["locator"], kind) == _cited(title, locator, kind):
            names.setdefault(title, entry["source"])
    return names


@dataclass(frozen=True)
class ClaimChange:
    """What a save does (or did) to one claim. ``claim_id`` is None for a claim the save creates."""

    outcome: str
    claim_id: int | None
    text: str
    previous_text: str = ""
    related_id: int | None = None
    reasons: tuple[Summary, ...] = ()
    status: str = ""
    previous_status: str = ""
    similarity: float | None = None
    written_reason: str = ""

    @property
    def reason(self) -> str:
        """Why, in the active language (a reason stored before reasons had messages: as stored)."""
        return reasons_for_reader([_part(r) for r in self.reasons], self.written_reason)

    @property
    def diff(self) -> tuple[tuple[str, str], ...]:
        """Per-character diff of the sentence before and after: a claim orphaned or merged away has no sentence after,
        its text (the one it had last) is deleted."""
        if self.outcome in _GONE:
            return char_diff(self.text, "")
        return char_diff(self.previous_text, self.text)

    @property
    def status_reset(self) -> bool:
        return bool(self.previous_status) and self.previous_status != self.status

    @property
    def outcome_label(self) -> str:
        return outcome_label(self.outcome)

    @property
    def status_label(self) -> str:
        return status_label(self.status)

    @property
    def previous_status_label(self) -> str:
        return status_label(self.previous_status)


@dataclass(frozen=True)
class ClaimReport:
    kept: int
    changes: tuple[ClaimChange, ...]

    def of(self, outcome: str) -> list[ClaimChange]:
        return [c for c in self.changes if c.outcome == outcome]

    def counts(self) -> dict[str, int]:
        counted = Counter(c.outcome for c in self.changes)
        return {str(o): counted[o] for o in OUTCOME_ORDER if counted[o]}

    def summary(self) -> str:
        """"3 kept, 1 reworded" in the active language."""
        counts = {Outcome.KEPT.value: self.kept, **self.counts()} if self.kept else self.counts()
        parts = [gettext("%(count)s %(outcome)s") % {"count": n, "outcome": outcome_label(o)} for o, n in counts.items()]
        return gettext(", ").join(parts) or gettext("no claims")

    @property
    def changed(self) -> bool:
        return bool(self.changes)

    @cached_property
    def orphaned_answers(self) -> list[tuple[int, int, str]]:
        """(claim, question, its title) for each question a claim this leaves orphaned answers: the editor is told
        before saving, and after. One query, none when nothing is orphaned."""
        orphaned = [c.claim_id for c in self.changes if c.outcome in (Outcome.ORPHANED, Outcome.MERGED) and c.claim_id]
        if not orphaned:
            return []
        return list(OpenQuestion.objects.live().filter(answer_claim_id__in=orphaned)
                    .order_by("answer_claim_id", "pk").values_list("answer_claim_id", "pk", "title"))


def _part(reason: Summary) -> dict[str, Any]:
    return {"key": reason.key, "values": dict(reason.values)}


def reason_fields(reasons: Sequence[Summary]) -> dict[str, Any]:
    """``reason`` (in English) and ``reason_parts`` (the messages, read in each reader's language) of a ClaimRevision."""
    return {"reason": " ".join(r.english() for r in reasons)[:REASON_MAX], "reason_parts": [_part(r) for r in reasons]}


def same_wording(text: str, other: str) -> bool:
    """The same statement (punctuation, spacing and case aside) citing the same works at the same locators."""
    return normalise(statement(text)) == normalise(statement(other)) and sorted(cited_in(text)) == sorted(cited_in(other))


def verified_texts(entries: Iterable[Mapping[str, Any]]) -> tuple[str, ...]:
    """The texts a claim had while verified, read from its history's entries (``text``, ``status``,
    ``previous_text``, ``previous_status``)."""
    texts = [e["text"] for e in entries if e.get("status") == ClaimStatus.VERIFIED and e.get("text")]
    texts += [e["previous_text"] for e in entries if e.get("previous_status") == ClaimStatus.VERIFIED and e.get("previous_text")]
    return tuple(dict.fromkeys(texts))


def status_after(
    claim: Claim, *, old_text: str, new_text: str, citations_changed: bool, verified: Collection[str] = ()
) -> tuple[str, tuple[Summary, ...]]:
    """The status a changed sentence leaves its claim with, and why it changed (nothing when it did not).

    A verified claim stays verified through a small edit (a typo, re-punctuation) that leaves what it says alone (no
    negation, opposite or number changed: :func:`meaning_changed`), and when its sentence is again,
    word for word and citation for citation, one it had while it was verified (``verified``: a revert, an earlier
    wording restored); a larger rewording, or a changed citation or locator, asks for verification again. A claim
    not verified keeps its status: coming back to a text it once had verified does not verify it again.
    """
    if claim.status != ClaimStatus.VERIFIED:
        return claim.status, ()
    if any(same_wording(text, new_text) for text in verified):
        return claim.status, ()
    reworded = not is_small_edit(statement(old_text), statement(new_text))
    characters = edit_size(statement(old_text), statement(new_text))
    if citations_changed and reworded:
        why = summary("claim_recheck_citations_wording", characters=characters)
    elif citations_changed:
        why = summary("claim_recheck_citations")
    elif reworded:
        why = summary("claim_recheck_wording", characters=characters)
    elif meaning_changed(statement(old_text), statement(new_text)):
        why = summary("claim_recheck_meaning")
    else:
        return claim.status, ()
    return ClaimStatus.NEEDS_VERIFICATION, (why,)


def cite_other_works(old_text: str, new_text: str, sources: Mapping[str, Source]) -> bool:
    """Whether ``new_text`` cites other works or locators than ``old_text``, in whatever order (``sources``: the work
    each title of either names; the same work by another of its names is no change)."""
    return sorted(_works_cited(_written_in(old_text), sources)) != sorted(_works_cited(_written_in(new_text), sources))


def cited_titles_in(*texts: str) -> set[str]:
    """The titles the texts cite, as written."""
    return {title for text in texts for title, _, _ in _written_in(text)}


def _history(claim: Claim) -> list[dict[str, Any]]:
    """The latest entries of an orphan's history read with it (``ClaimQuerySet.for_matching``); none for a current claim."""
    return getattr(claim, "history", None) or []


def _earlier_texts(claim: Claim) -> tuple[str, ...]:
    """The texts an orphan had, most recent first, without their citations: the sentence may come back as any of them."""
    texts = (text for entry in _history(claim) for text in (entry.get("text"), entry.get("previous_text")) if text)
    return tuple(dict.fromkeys(statement(text) for text in texts))


def _match(page: Page | None, refs: Sequence[ClaimRef]) -> tuple[dict[int, Claim], list[Match]]:
    claims = list(Claim.objects.filter(page=page).for_matching()) if page is not None and page.pk else []
    previous = [Previous(id=c.pk, text=statement(c.text), position=c.position, orphaned=c.is_orphaned,
                         earlier=_earlier_texts(c), written=c.text) for c in claims]
    sentences = [Sentence(text=statement(ref.text), position=i, written=ref.text) for i, ref in enumerate(refs)]
    by_id = {c.pk: c for c in claims}
    matches = []
    for match in match_claims(previous, sentences).matches:
        # The same statement with other citations is the same claim reworded: its citations are to be checked.
        if match.outcome is Outcome.KEPT and match.sentence is not None and match.claim_id is not None \
                and by_id[match.claim_id].text != refs[match.sentence].text:
            match = Match(Outcome.REWORDED, match.sentence, match.claim_id, match.score, match.related)
        matches.append(match)
    return by_id, matches


def _split_status(by_id: dict[int, Claim], match: Match) -> str:
    """A new claim's status: disputed when it was split from a disputed claim (a dispute is not shed by splitting the
    sentence), else needing verification."""
    origin = by_id.get(match.related) if match.related is not None else None
    return ClaimStatus.DISPUTED if origin is not None and origin.status == ClaimStatus.DISPUTED else ClaimStatus.NEEDS_VERIFICATION


def _merged_disputes(by_id: dict[int, Claim], matches: Iterable[Match]) -> dict[int, int]:
    """The claim each disputed claim merged away went into, keyed by that claim: it holds the disputed statement now,
    so it is disputed too (a dispute is not shed by merging sentences, as it is not by splitting one)."""
    return {match.related: match.claim_id for match in matches
            if match.outcome is Outcome.MERGED and match.related is not None and match.claim_id is not None
            and by_id[match.claim_id].status == ClaimStatus.DISPUTED}


def _status_merging(claim: Claim, status: str, reasons: tuple[Summary, ...],
                    disputes: Mapping[int, int]) -> tuple[str, tuple[Summary, ...]]:
    """``status`` and ``reasons`` of a sentence's claim, disputed when a disputed claim was merged into it (the
    dispute is then the reason, not a verification asked for again that the status does not show)."""
    if claim.pk not in disputes or status == ClaimStatus.DISPUTED:
        return status, reasons
    return ClaimStatus.DISPUTED, (summary("claim_merged_disputed", claim=disputes[claim.pk]),)


def page_claims_plan(*, page: Page | None, refs: Sequence[ClaimRef], sources: Mapping[str, Source] | None = None) -> ClaimReport:
    """What saving ``refs`` (the claims of the rendered text) would do to the page's claims; writes nothing. One query.

    ``sources``: the work each title cited (before the edit or in it) names, as the save reads them (a claim citing the
    same work by another name keeps its status); without it, titles are compared as written."""
    by_id, matches = _match(page, refs)
    disputes = _merged_disputes(by_id, matches)
    kept = 0
    changes: list[ClaimChange] = []
    for match in matches:
        ref = refs[match.sentence] if match.sentence is not None else None
        claim = by_id.get(match.claim_id) if match.claim_id is not None else None
        if match.outcome is Outcome.KEPT:
            kept += 1
            continue
        if ref is None and claim is not None:
            changes.append(ClaimChange(match.outcome, claim.pk, claim.text, related_id=match.related, status=claim.status))
        elif claim is None and ref is not None:
            changes.append(ClaimChange(match.outcome, None, ref.text, related_id=match.related,
                                       status=_split_status(by_id, match), similarity=match.score or None))
        elif claim is not None and ref is not None:
            status, reasons = status_after(claim, old_text=claim.text, new_text=ref.text,
                                            citations_changed=citations_changed(claim.text, ref, sources or {},
                                                                                own_names(claim)),
                                            verified=verified_texts(_history(claim)))
            status, reasons = _status_merging(claim, status, reasons, disputes)
            changes.append(ClaimChange(match.outcome, claim.pk, ref.text, claim.text, match.related, reasons, status,
                                       claim.status, match.score))
    return ClaimReport(kept=kept, changes=tuple(changes))


def page_claims_sync(
    *, page: Page, refs: Sequence[ClaimRef], revision: Revision | None, sources: dict[str, Source],
    user: Account | None = None, newly_resolved: Collection[str] = (),
) -> ClaimReport:
    """Matches the page's sentences to its claims and writes the outcome; ``sources`` maps the cited titles that
    resolve to a work (a title close to a work but left unresolved has no citation until it is corrected), and
    those the claims cited before the save: a claim citing the same work by another name cites no other work.

    Kept and reworded claims keep their identity, status (unless :func:`status_after` says
    otherwise), questions and contrasts; their citations are rewritten only when the citations
    written in the sentence changed, so citations an editor set stay. A kept sentence citing a title that had
    no work before and has one now (``newly_resolved``: confirmed as a new work, or added since) gains that citation.
    A fixed number of queries.
    """
    by_id, matches = _match(page, refs)
    disputes = _merged_disputes(by_id, matches)
    now = timezone.now()
    kept = 0
    new_claims: list[tuple[Claim, ClaimRef, Match]] = []
    changed: list[Claim] = []
    recite: list[tuple[Claim, ClaimRef]] = []
    resolved: list[tuple[Claim, ClaimRef]] = []
    history: list[ClaimRevision] = []
    changes: list[ClaimChange] = []
    for match in matches:
        ref = refs[match.sentence] if match.sentence is not None else None
        claim = by_id.get(match.claim_id) if match.claim_id is not None else None
        if ref is None:
            assert claim is not None
            claim.is_orphaned, claim.updated_at = True, now
            changed.append(claim)
            reasons: tuple[Summary, ...] = (summary("claim_merged_into", claim=match.related)
                                            if match.outcome is Outcome.MERGED else summary("claim_sentence_removed"),)
            history.append(ClaimRevision(claim=claim, page_revision=revision, kind=_KIND[match.outcome], text=claim.text,
                                         status=claim.status, **reason_fields(reasons), related_claim_id=match.related,
                                         user=user))
            changes.append(ClaimChange(match.outcome, claim.pk, claim.text, related_id=match.related, reasons=reasons,
                                       status=claim.status))
            continue
        fresh = (ref.anchor, ref.section[:SECTION_MAX], ref.text, ref.key, match.sentence or 0)
        if claim is None:
            claim = Claim(page=page, anchor=fresh[0], section=fresh[1], text=ref.text, key=ref.key, position=fresh[4],
                          status=_split_status(by_id, match))
            new_claims.append((claim, ref, match))
            continue
        old_text, old_status = claim.text, claim.status
        if match.outcome is Outcome.KEPT and not claim.is_orphaned:
            kept += 1
            if any(c.title in newly_resolved for c in ref.citations):
                resolved.append((claim, ref))
        else:
            recited = citations_changed(old_text, ref, sources, own_names(claim))
            claim.status, reasons = status_after(claim, old_text=old_text, new_text=ref.text,
                                                  citations_changed=recited,
                                                  verified=verified_texts(_history(claim)))
            claim.status, reasons = _status_merging(claim, claim.status, reasons, disputes)
            if recited:
                recite.append((claim, ref))
            history.append(ClaimRevision(
                claim=claim, page_revision=revision, kind=_KIND[match.outcome], text=ref.text, previous_text=old_text,
                status=claim.status, previous_status=old_status, **reason_fields(reasons), similarity=match.score,
                related_claim_id=match.related, user=user,
            ))
            changes.append(ClaimChange(match.outcome, claim.pk, ref.text, old_text, match.related, reasons, claim.status,
                                       old_status, match.score))
        if (claim.anchor, claim.section, claim.text, claim.key, claim.position) != fresh or claim.is_orphaned or \
                claim.status != old_status:
            claim.anchor, claim.section, claim.text, claim.key, claim.position = fresh
            claim.is_orphaned, claim.updated_at = False, now
            changed.append(claim)

    Claim.objects.bulk_create([claim for claim, _, _ in new_claims])
    # bulk_update writes one CASE per field, slow for thousands of rows: only claims that moved or changed.
    Claim.objects.bulk_update(
        changed, ["anchor", "section", "text", "key", "position", "status", "is_orphaned", "updated_at"], batch_size=500
    )
    for claim, ref, match in new_claims:
        reasons = (summary("claim_split_from", claim=match.related),) if match.related else ()
        if claim.status == ClaimStatus.DISPUTED:
            reasons = (summary("claim_split_from_disputed", claim=match.related),)
        history.append(ClaimRevision(claim=claim, page_revision=revision, kind=ClaimRevision.Kind.CREATED, text=ref.text,
                                     status=claim.status, **reason_fields(reasons), related_claim_id=match.related,
                                     user=user))
        changes.append(ClaimChange(Outcome.NEW, claim.pk, ref.text, related_id=match.related, reasons=reasons,
                                   status=claim.status, similarity=match.score or None))
    ClaimRevision.objects.bulk_create(history, batch_size=1000)
    Citation.objects.filter(claim__in=[claim.pk for claim, _ in recite]).delete()
    _write_citations([(claim, ref) for claim, ref, _ in new_claims] + recite, sources)
    # Only the citations of the new works: the sentence's other citations are as the editor left them.
    _write_citations(resolved, {title: source for title, source in sources.items() if title in newly_resolved})
    order = {c.claim_id: i for i, c in enumerate(changes)}
    changes.sort(key=lambda c: (OUTCOME_ORDER.index(Outcome(c.outcome)), order[c.claim_id]))
    return ClaimReport(kept=kept, changes=tuple(changes))


def _write_citations(rows: Iterable[tuple[Claim, ClaimRef]], sources: dict[str, Source]) -> None:
    """The citations written in each sentence, and the cited works as what the claim is about."""
    # A work cited twice at one locator, however typed (``pp.3-4``, ``pp. 3–4``), is one citation, as first typed.
    citations: dict[tuple[int, int, str], Citation] = {}
    about: set[tuple[int, int]] = set()
    for claim, ref in rows:
        for index, cited in enumerate(ref.citations):
            source = sources.get(cited.title)
            if source is None:
                continue
            citations.setdefault(
                (claim.pk, source.pk, locator_key(cited.locator)),
                Citation(claim=claim, source=source, locator=cited.locator, kind=cited.kind, position=index),
            )
            about.add((claim.pk, source.pk))
    Citation.objects.bulk_create(citations.values(), batch_size=1000)
    through = Claim.about.through
    through.objects.bulk_create(
        (through(claim_id=claim_id, source_id=source_id) for claim_id, source_id in about),
        ignore_conflicts=True,
        batch_size=1000,
    )


def claim_report_for(revision: Revision) -> ClaimReport:
    """What saving ``revision`` did to its page's claims, read back from their history. Two queries."""
    rows = list(ClaimRevision.objects.history().filter(page_revision=revision))
    changes = [_change_of(row) for row in rows]
    touched = {c.claim_id for c in changes}
    current = Claim.objects.filter(page_id=revision.page_id, is_orphaned=False).values_list("id", flat=True)
    return ClaimReport(kept=sum(1 for pk in current if pk not in touched), changes=tuple(changes))


def claim_report_unchanged(page: Page) -> ClaimReport:
    """A save that changed nothing: every current claim of ``page`` kept, none touched. One query."""
    return ClaimReport(kept=Claim.objects.filter(page_id=page.pk, is_orphaned=False).count(), changes=())


def claim_changes_between(*, page: Page, after: int, upto: int) -> ClaimReport:
    """What the page's saves after revision ``after`` up to ``upto`` did to its claims (``kept`` is not counted), each
    claim once (:func:`net_change`), in the order the saves first touched them. One query."""
    steps: dict[int | None, list[ClaimChange]] = {}
    for row in ClaimRevision.objects.between(page.pk, min(after, upto), max(after, upto)):
        steps.setdefault(row.claim_id, []).append(_change_of(row))
    changes = (net_change(claim_steps) for claim_steps in steps.values())
    return ClaimReport(kept=0, changes=tuple(change for change in changes if change is not None))



def net_change(steps: Sequence[ClaimChange]) -> ClaimChange | None:
    """What several saves did to one claim, from before the first to after the last; None when it came back as it was
    (the same text and status).

    A claim that ends without a sentence is orphaned (or merged) with the text it had then; one created on the way
    and still on the page is new; else the last step says what happened (reworded, split, restored), shown against
    the text before the first. The reasons are those of each step that changed the status, then the last step's.
    """
    first, last = steps[0], steps[-1]
    if len(steps) == 1:
        return first
    reasons: list[Summary] = []
    for reason in [r for step in steps[:-1] if step.status_reset for r in step.reasons] + list(last.reasons):
        if reason not in reasons:
            reasons.append(reason)
    if last.outcome in _GONE:
        return replace(last, reasons=tuple(reasons), similarity=None)
    if first.outcome == Outcome.NEW.value:
        return replace(last, outcome=Outcome.NEW.value, previous_text="", previous_status="", reasons=tuple(reasons),
                       related_id=first.related_id, similarity=None)
    before = first.text if first.outcome in _GONE else first.previous_text
    status_before = first.previous_status or first.status
    if before == last.text and status_before == last.status:
        return None
    return replace(last, previous_text=before, previous_status=status_before, reasons=tuple(reasons), similarity=None)


# Citations an editor set through a claim's form are written into its sentence by a page save: its sentence reworded.
_OUTCOME_OF_KIND = {**{kind: outcome for outcome, kind in _KIND.items()}, ClaimRevision.Kind.CITED: Outcome.REWORDED}


def _reasons_of(row: ClaimRevision) -> tuple[Summary, ...]:
    try:
        return tuple(Summary(part["key"], part.get("values", {})) for part in row.reason_parts)
    except (KeyError, TypeError, AttributeError):
        return ()


def _change_of(row: ClaimRevision) -> ClaimChange:
    outcome = _OUTCOME_OF_KIND.get(ClaimRevision.Kind(row.kind), row.kind)
    return ClaimChange(str(outcome), row.claim_id, row.text, row.previous_text, row.related_claim_id, _reasons_of(row),
                       row.status, row.previous_status, row.similarity, row.reason)
