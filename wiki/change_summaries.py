"""What the wiki writes itself into recent changes, page history and a claim's history: stored in English, shown in
the reader's language.

A service records a :class:`Summary`, one of :data:`MESSAGES` with its values. The entry keeps the English sentence
(for the admin, and for entries written before messages had keys) beside the message's key and values, from which
:func:`summary_for_reader` writes the sentence again in the active language, with statuses, priorities, mechanisms,
verdicts and field names as their labels. An editor's own summary is a plain string and is shown as typed.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.db import models
from django.utils import translation
from django.utils.translation import gettext, gettext_noop, pgettext

from wiki.field_labels import field_label_of
from wiki.models.claims import ClaimStatus
from wiki.models.questions import QuestionPriority, QuestionStatus
from wiki.taxonomy import mechanism_label, verdict_label
from wiki.text.lists import joined

if TYPE_CHECKING:
    from wiki.models import ChangeEvent

MESSAGES: dict[str, str] = {
    "imported": gettext_noop("Imported from file"),
    "reverted": gettext_noop("Reverted to revision %(number)s"),
    # Undoing one revision's change (its edit summary, prefilled in the edit form).
    "undone": gettext_noop("Undo revision %(number)s by %(user)s"),
    "undone_imported": gettext_noop("Undo revision %(number)s (imported)"),
    # A rollback of the latest editor's run of edits, to the last revision someone else saved (or an import).
    "rolled_back_one": gettext_noop("Reverted edits by %(user)s (1 edit) to the last revision by %(other)s"),
    "rolled_back": gettext_noop("Reverted edits by %(user)s (%(count)s edits) to the last revision by %(other)s"),
    "rolled_back_one_to_import": gettext_noop("Reverted edits by %(user)s (1 edit) to the last imported revision"),
    "rolled_back_to_import": gettext_noop("Reverted edits by %(user)s (%(count)s edits) to the last imported revision"),
    "created_from_citation": gettext_noop("created from a citation"),
    "changed_fields": gettext_noop("changed %(fields)s"),
    "no_change": gettext_noop("no change"),
    "identifiers_added": gettext_noop("added the identifiers of another version"),
    # Fields an editor took from an imported reference manager's record of the work (wiki.services.source_updates).
    "updated_from_import": gettext_noop("took %(fields)s from an imported reference"),
    "claim_status": gettext_noop("status %(before)s → %(after)s"),
    "claim_citations": gettext_noop("citations and works"),
    "claim_status_and_citations": gettext_noop("status %(before)s → %(after)s; citations and works"),
    # A claim's citations as the claim form set them (ClaimRevision.reason_parts).
    "claim_cited": gettext_noop("citations: %(before)s → %(after)s"),
    # The page's revision that writes a claim's citations from the claim form into its sentence.
    "claim_cited_in_text": gettext_noop("Citations of claim #%(id)s edited: %(before)s → %(after)s"),
    "claim_reattached": gettext_noop("re-attached to a sentence"),
    "claim_retired": gettext_noop("retired: %(reason)s"),
    # Why a claim's history records a step (ClaimRevision.reason_parts).
    "claim_recheck_citations": gettext_noop("Verified before; needs verification again: its citations or locators changed."),
    "claim_recheck_wording": gettext_noop(
        "Verified before; needs verification again: its wording changed (%(characters)s characters)."),
    "claim_recheck_meaning": gettext_noop(
        "Verified before; needs verification again: a negation, an opposite or a number in it changed."),
    "claim_recheck_citations_wording": gettext_noop(
        "Verified before; needs verification again: its citations or locators changed and its wording changed "
        "(%(characters)s characters)."),
    "claim_sentence_removed": gettext_noop("Its sentence was removed."),
    "claim_merged_into": gettext_noop("Merged into claim #%(claim)s."),
    "claim_split_from": gettext_noop("Split from claim #%(claim)s."),
    "claim_split_from_disputed": gettext_noop(
        "Split from claim #%(claim)s, which is disputed: disputed too until an editor settles it."),
    "claim_merged_disputed": gettext_noop(
        "Claim #%(claim)s, which is disputed, was merged into it: disputed too until an editor settles it."),
    "claim_reattached_disputed": gettext_noop(
        "The sentence was claim #%(claim)s, which is disputed: disputed too until an editor settles it."),
    "claim_reattached_to": gettext_noop("Re-attached to a sentence of “%(page)s”, which was claim #%(claim)s."),
    "question_created": gettext_noop("priority %(priority)s"),
    "question_answered": gettext_noop("answered"),
    # An answer given in an edit that also changed the question's priority or assignee (those clauses as "clauses").
    "question_answered_and": gettext_noop("answered; %(clauses)s"),
    # What an edit changed of a question's triage, a clause each (together as "clauses").
    "question_status": gettext_noop("status %(before)s → %(after)s"),
    "question_priority": gettext_noop("priority %(before)s → %(after)s"),
    "question_assigned_to": gettext_noop("assigned to %(after)s"),
    "question_reassigned": gettext_noop("assigned to %(after)s instead of %(before)s"),
    "question_unassigned": gettext_noop("no longer assigned to %(before)s"),
    # Entries written before an edit said what changed: the question's status and priority after it.
    "question_changed": gettext_noop("status %(status)s, priority %(priority)s"),
    "question_assigned": gettext_noop("status %(status)s, priority %(priority)s, assigned to %(assignee)s"),
    "question_details": gettext_noop("details"),
    # A question's new title, said first among what else the edit changed (in "clauses"), as a page's is.
    "question_retitled": gettext_noop("Title: %(before)s → %(after)s"),
    "classified": gettext_noop("%(mechanism)s, %(verdict)s"),
    "reclassified": gettext_noop("%(mechanism)s, %(verdict)s (changed %(fields)s)"),
    "page_moved": gettext_noop("moved from %(before)s to %(after)s"),
    "page_moved_because": gettext_noop("moved from %(before)s to %(after)s: %(reason)s"),
    # A page's new title, said beside whatever else the change says (in "clauses"), summary or none.
    "page_retitled": gettext_noop("Title: %(before)s → %(after)s"),
    # An editor's own words beside a message of the wiki's (in "clauses"): shown as typed, or in the reader's language
    # when the wiki wrote them (a revert's); not translated.
    "comment": "%(comment)s",
    # Not a sentence of its own, so not translated: several of these messages, apart by the language's clause
    # separator (_clauses).
    "clauses": "%(clauses)s",
    "merged": gettext_noop(
        "moved %(citations)s citations, %(classifications)s classifications, %(contrasts)s contrast sides, "
        "%(questions)s questions"
    ),
    # A work an import created, deleted with the whole import when it was undone (wiki.services.source_import_undo).
    "import_undone": gettext_noop("import #%(number)s undone"),
    # The fields a kept work took from the work merged into it (wiki.services.merge_fields).
    "merged_fields": gettext_noop("moved %(citations)s citations, %(classifications)s classifications, %(contrasts)s "
                                  "contrast sides, %(questions)s questions; took %(fields)s from the merged work"),
}


def _choice(choices: type[models.TextChoices]) -> Callable[[Any], str]:
    def label(value: Any) -> str:
        return str(choices(value).label) if value in choices.values else str(value)

    return label


def _fields(names: Any) -> str:
    return joined(field_label_of(str(name)) for name in names)


def _clauses(parts: Any) -> str:
    """Messages stored as ``[{"key": …, "values": {…}}]``, each in the active language, apart by its clause
    separator."""
    return pgettext("clause separator", "; ").join(Summary(part["key"], part.get("values", {})).text() for part in parts)


_QUESTION = {"status": _choice(QuestionStatus), "priority": _choice(QuestionPriority)}
# How a value is shown, where it is a key rather than words: by message, then by value name.
LABELS: dict[str, dict[str, Callable[[Any], str]]] = {
    "changed_fields": {"fields": _fields},
    "updated_from_import": {"fields": _fields},
    "merged_fields": {"fields": _fields},
    "claim_status": {"before": _choice(ClaimStatus), "after": _choice(ClaimStatus)},
    "claim_status_and_citations": {"before": _choice(ClaimStatus), "after": _choice(ClaimStatus)},
    "question_created": {"priority": _choice(QuestionPriority)},
    "question_changed": _QUESTION,
    "question_assigned": _QUESTION,
    "question_status": {"before": _choice(QuestionStatus), "after": _choice(QuestionStatus)},
    "question_priority": {"before": _choice(QuestionPriority), "after": _choice(QuestionPriority)},
    "question_answered_and": {"clauses": _clauses},
    "clauses": {"clauses": _clauses},
    "comment": {"comment": lambda comment: comment_for_reader(str(comment))},
    "classified": {"mechanism": mechanism_label, "verdict": verdict_label},
    "reclassified": {"mechanism": mechanism_label, "verdict": verdict_label, "fields": _fields},
}


@dataclass(frozen=True)
class Summary:
    """One of :data:`MESSAGES` with its values (plain JSON: keys, numbers, names, lists of field names)."""

    key: str
    values: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.key not in MESSAGES:
            raise KeyError(f"no change summary {self.key!r}")

    def text(self) -> str:
        """The sentence in the active language."""
        labels = LABELS.get(self.key, {})
        values = {name: labels[name](value) if name in labels else value for name, value in self.values.items()}
        return gettext(MESSAGES[self.key]) % values

    def english(self) -> str:
        with translation.override("en"):
            return self.text()


def summary(key: str, **values: Any) -> Summary:
    """The summary ``key`` of :data:`MESSAGES` with ``values``; lists of field names as lists."""
    return Summary(key, {name: list(value) if isinstance(value, Sequence) and not isinstance(value, str) else value
                         for name, value in values.items()})


def clauses(*parts: Summary) -> Summary:
    """One summary saying each of ``parts`` (at least one), in their order: the part itself when it is alone."""
    if len(parts) == 1:
        return parts[0]
    return Summary("clauses", {"clauses": [{"key": part.key, "values": dict(part.values)} for part in parts]})


def with_title_change(said: str | Summary, *, before: str, after: str) -> str | Summary:
    """What a change of a page says (an editor's summary, or the wiki's), with its new title first when the change
    retitled it (``before`` is not ``after``): a title is changed in plain sight, whether or not a summary says so."""
    if before == after:
        return said
    retitled = summary("page_retitled", before=before, after=after)
    if isinstance(said, Summary):
        return clauses(retitled, said)
    return clauses(retitled, summary("comment", comment=said)) if said.strip() else retitled
# The messages a revision's edit summary holds as the wiki wrote it (in the language of whoever saved it, or English),
# read back in each reader's language: the more particular first, where one reads as another would.
READ_BACK = ("imported", "reverted", "undone_imported", "undone", "rolled_back_one_to_import", "rolled_back_to_import",
             "rolled_back_one", "rolled_back", "claim_cited_in_text")
# The values that are numbers, and those that are any text (a claim's citations, "SkillForge, §3.1; ReAct"); any other
# is a username (the characters Django's validator allows), so that words an editor adds after the message are not
# read as part of a name.
_NUMBERS = frozenset({"number", "count", "id"})
_TEXTS = frozenset({"before", "after"})
_PLACEHOLDER = re.compile(r"%\((\w+)\)s")


def _pattern(sentence: str) -> re.Pattern[str]:
    parts = _PLACEHOLDER.split(sentence)
    pattern = "".join(re.escape(part) if index % 2 == 0 else rf"(?P<{part}>\d+)" if part in _NUMBERS
                      else rf"(?P<{part}>.+)" if part in _TEXTS else rf"(?P<{part}>[\w.@+-]+)"
                      for index, part in enumerate(parts))
    return re.compile(pattern)


@cache
def _in_every_language(key: str) -> tuple[re.Pattern[str], ...]:
    """The message ``key`` as each of the wiki's languages writes it, its values groups: a summary stored in the
    language of whoever made it reads in each reader's language all the same."""
    sentences = {MESSAGES[key]}
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            sentences.add(gettext(MESSAGES[key]))
    return tuple(_pattern(sentence) for sentence in sorted(sentences))


def is_message(comment: str, key: str, **values: Any) -> bool:
    """Whether ``comment`` is the message ``key`` with ``values``, as one of the wiki's languages writes it."""
    sentences = {MESSAGES[key] % values}
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            sentences.add(gettext(MESSAGES[key]) % values)
    return comment.strip() in sentences


def read_back(comment: str) -> Summary | None:
    """The message of :data:`READ_BACK` ``comment`` is, in whichever of the wiki's languages, with its values; None
    when it is an editor's own words."""
    for key in READ_BACK:
        for pattern in _in_every_language(key):
            if (found := pattern.fullmatch(comment)) is not None:
                return Summary(key, {name: int(value) if name in _NUMBERS else value
                                     for name, value in found.groupdict().items()})
    return None


def comment_in_english(comment: str) -> str:
    """A summary as it is stored: one the wiki writes (an undo's, prefilled in the reader's language and sent as it
    was) in English, each reader then reading it in theirs; an editor's own words as typed."""
    written = read_back(comment.strip())
    return written.english() if written is not None else comment


def comment_for_reader(comment: str) -> str:
    """A revision's summary in the active language when the wiki wrote it (an import, a revert, an undo, a
    rollback), else as typed."""
    written = read_back(comment)
    return written.text() if written is not None else comment


def summary_for_reader(event: ChangeEvent) -> str:
    """What ``event`` says in the active language: its message's sentence when the wiki wrote it, else as typed."""
    if event.summary_key in MESSAGES:
        try:
            return Summary(event.summary_key, event.summary_values).text()
        except (KeyError, TypeError, ValueError):
            return event.summary
    return comment_for_reader(event.summary)


def reasons_for_reader(parts: Sequence[Mapping[str, Any]], fallback: str = "") -> str:
    """Messages stored as ``[{"key": …, "values": {…}}]`` (a claim's history) in the active language, one after the
    other; ``fallback`` (the stored English) when there are none or one cannot be read."""
    try:
        texts = [Summary(part["key"], part.get("values", {})).text() for part in parts]
    except (KeyError, TypeError, ValueError, AttributeError):
        return fallback
    return " ".join(texts) if texts else fallback
