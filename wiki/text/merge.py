"""Three-way merges of a page's text and of its one-line fields: an edit merged with what was saved meanwhile is saved
at once when nothing clashes, else shown on the edit-conflict screen."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import merge3
from django.utils.translation import gettext

from wiki.markdown.citations import CITATION_RE

# The markers put around a clash; what follows them on their line is a label in the editor's language.
START, MIDDLE, END = "<<<<<<<", "=======", ">>>>>>>"
# The longest clash (in characters, each side) merged within its lines when only one side changed citations.
MAX_MERGED_WITHIN_LINES = 20_000


@dataclass(frozen=True)
class MergeRegion:
    """One stretch of a three-way merge: clean text, or a clash between theirs and mine."""

    text: str = ""
    theirs: str = ""
    mine: str = ""
    base: str = ""
    conflict: bool = False


@dataclass(frozen=True)
class MergeResult:
    regions: tuple[MergeRegion, ...]

    @property
    def is_clean(self) -> bool:
        return not any(region.conflict for region in self.regions)

    @property
    def conflict_count(self) -> int:
        return sum(region.conflict for region in self.regions)

    def text(self) -> str:
        """The merged text; clashes are kept with both sides between conflict markers to resolve by hand, labelled
        in the active language."""
        parts: list[str] = []
        theirs, mine = gettext("theirs (saved meanwhile)"), gettext("mine")
        for region in self.regions:
            if not region.conflict:
                parts.append(region.text)
                continue
            parts.append(f"{START} {theirs}\n")
            parts.append(_ensure_newline(region.theirs))
            parts.append(f"{MIDDLE}\n")
            parts.append(_ensure_newline(region.mine))
            parts.append(f"{END} {mine}\n")
        return "".join(parts)


def has_conflict_markers(body: str) -> bool:
    """True when the markers :meth:`MergeResult.text` puts around a clash are still there, in order, whatever the
    language of their labels."""
    expected = (START, MIDDLE, END)
    step = 0
    for line in body.splitlines():
        if line.startswith(expected[step]) and (step != 1 or line == expected[1]):
            step += 1
            if step == len(expected):
                return True
    return False


def _ensure_newline(text: str) -> str:
    return text if not text or text.endswith("\n") else text + "\n"


def merge_texts(*, base: str, theirs: str, mine: str) -> MergeResult:
    """Three-way merge by line: base is the text the editor started from, theirs what was saved meanwhile."""
    merger = merge3.Merge3(base.splitlines(True), theirs.splitlines(True), mine.splitlines(True))
    regions: list[MergeRegion] = []
    for group in merger.merge_groups():
        if group[0] == "conflict":
            _, base_lines, theirs_lines, mine_lines = group
            base_text, theirs_text, mine_text = "".join(base_lines), "".join(theirs_lines), "".join(mine_lines)
            within = _merged_within_lines(base=base_text, theirs=theirs_text, mine=mine_text)
            regions.append(MergeRegion(text=within) if within is not None else
                           MergeRegion(base=base_text, theirs=theirs_text, mine=mine_text, conflict=True))
        else:
            regions.append(MergeRegion(text="".join(group[1])))
    return MergeResult(regions=tuple(regions))


def _merged_within_lines(*, base: str, theirs: str, mine: str) -> str | None:
    """Lines that clash where one side changed only citations (``（来源：…）``, as a claim's form writes them) and the
    other the words around them, merged character by character with each citation whole: a sentence reworded keeps
    the citation added, changed or removed meanwhile. None when both changed the words, or the same citation, or
    the lines are too long to merge so."""
    if max(len(base), len(theirs), len(mine)) > MAX_MERGED_WITHIN_LINES:
        return None
    words = _without_citations(base)
    if _without_citations(theirs) != words and _without_citations(mine) != words:
        return None
    cited = CITATION_RE.findall(base)
    for only_cited, reworded in ((theirs, mine), (mine, theirs)):
        changed = CITATION_RE.findall(only_cited)
        if (_without_citations(only_cited) == words and CITATION_RE.findall(reworded) == cited
                and len(changed) == len(cited)):
            # the same citations, some changed: each put in its place in the reworded text
            return _with_citations(reworded, [found.group() for found in CITATION_RE.finditer(only_cited)])
    merged: list[str] = []
    for group in merge3.Merge3(_pieces(base), _pieces(theirs), _pieces(mine)).merge_groups():
        if group[0] == "conflict":
            return None
        merged.extend(group[1])
    return "".join(merged)


def _with_citations(text: str, citations: list[str]) -> str:
    """``text`` with its citations replaced, in order, by ``citations`` (as many)."""
    replacements = iter(citations)
    return CITATION_RE.sub(lambda _: next(replacements), text)


def _without_citations(text: str) -> str:
    return CITATION_RE.sub("", text)


def _pieces(text: str) -> list[str]:
    """``text`` a character at a time, each citation in it one piece."""
    pieces: list[str] = []
    at = 0
    for found in CITATION_RE.finditer(text):
        pieces.extend(text[at:found.start()])
        pieces.append(found.group())
        at = found.end()
    pieces.extend(text[at:])
    return pieces


@dataclass(frozen=True)
class FieldMerge:
    """A one-line field (title, summary) merged three ways; on a clash ``value`` is mine and ``theirs`` is shown beside it."""

    value: str
    theirs: str = ""
    clash: bool = False


def merge_field(*, base: str, theirs: str, mine: str) -> FieldMerge:
    """Whoever changed the field wins; when both changed it differently, mine is kept and theirs reported, never dropped."""
    if mine in (base, theirs):
        return FieldMerge(value=theirs)
    if theirs == base:
        return FieldMerge(value=mine)
    return FieldMerge(value=mine, theirs=theirs, clash=True)


# The parts of a page an edit changes, merged each on its own: the one-line fields, then the text.
FIELDS = ("title", "summary")


@dataclass(frozen=True)
class EditMerge:
    """An edit (``mine``) merged with the revision saved since the one it started from (``theirs``)."""

    body: MergeResult
    fields: Mapping[str, FieldMerge]

    @property
    def is_clean(self) -> bool:
        """Nothing clashes: the merge holds both edits, and can be saved as it is."""
        return self.body.is_clean and not any(field.clash for field in self.fields.values())

    def values(self) -> dict[str, str]:
        """The title, summary and text merged (clashes marked in the text, mine kept in a field)."""
        return {**{name: field.value for name, field in self.fields.items()}, "body": self.body.text()}


def merge_edit(*, base: Mapping[str, str], theirs: Mapping[str, str], mine: Mapping[str, str]) -> EditMerge:
    """Merges an edit's title, summary and text (``mine``) with those saved meanwhile (``theirs``), both made from
    ``base``."""
    return EditMerge(
        body=merge_texts(base=base["body"], theirs=theirs["body"], mine=mine["body"]),
        fields={name: merge_field(base=base[name], theirs=theirs[name], mine=mine[name]) for name in FIELDS},
    )
