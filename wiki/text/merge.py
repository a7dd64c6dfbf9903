"""Three-way merges of a page's text and of its one-line fields, for the edit-conflict screen."""

from __future__ import annotations

from dataclasses import dataclass

import merge3
from django.utils.translation import gettext

# The markers put around a clash; what follows them on their line is a label in the editor's language.
START, MIDDLE, END = "<<<<<<<", "=======", ">>>>>>>"


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
            regions.append(
                MergeRegion(base="".join(base_lines), theirs="".join(theirs_lines), mine="".join(mine_lines), conflict=True)
            )
        else:
            regions.append(MergeRegion(text="".join(group[1])))
    return MergeResult(regions=tuple(regions))


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
