"""The bilingual cue lexicon: what a phrase says about mechanism and rubric facts.

Every cue is a regular expression with effects: a weight towards one mechanism,
signed weights towards rubric facts, the algorithm it names, or a narrowness
signal. Cues name methods and concepts, never particular works. All cues are
compiled once, at import, and scanned in a single pass (``scan``).

- ``cue``: the ``Cue`` record and the helpers that write entries;
- ``cues``: the mechanism cues and the whole table (``CUES``);
- ``facts``: the cues about rubric facts and narrow update targets;
- ``scan``: first-character dispatch and the scan;
- ``starts``: the characters a pattern can start with, and patterns guarded by them;
- ``words``: negation and contrast triggers, pronouns, generic tokens.
"""

from classifier.lexicon.cue import Cue
from classifier.lexicon.cues import CUES
from classifier.lexicon.scan import CUE_BY_GROUP, scan
from classifier.lexicon.words import COMMON_TOKENS, NEGATION, PRONOUN, SCOPE_BREAK, SUBJECT_STOPWORDS

__all__ = [
    "COMMON_TOKENS",
    "CUES",
    "CUE_BY_GROUP",
    "NEGATION",
    "PRONOUN",
    "SCOPE_BREAK",
    "SUBJECT_STOPWORDS",
    "Cue",
    "scan",
]
