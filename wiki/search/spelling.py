"""British and American spellings of a word: a query word spelled one way searches for the other spelling too.

Four pairs of endings, after a stem of at least three letters: ``-isation``/``-ization`` and ``-ise``/``-ize``
(``optimisation``, ``optimised``, ``organising``), ``-yse``/``-yze`` (``analyse``), and ``-our``/``-or`` for the
words that take both (``behaviour``, ``colour``, ``favourite``, ``neighbourhood``). The other spelling is searched
beside the word as a glossary term's other names are (``wiki.search.query``), so documents are indexed as they are
written and highlighted as written. A word that only looks like one (``otherwise``) gets another spelling that no
document holds, which costs one look-up in the index; ``size``, ``four`` and ``tensor`` get none.
"""

from __future__ import annotations

import re

_MIN_STEM = 3
# -ise/-ize and -yse/-yze, with what may follow them.
_ISE_RE = re.compile(rf"^(?P<stem>[a-z]{{{_MIN_STEM},}}?[iy])(?P<s>[sz])(?P<end>ations?|ational|able|e[ds]?|ers?|ing)$")
# The stems of the common -our words; -or words beyond them (actor, tensor, error) have no British form.
_OUR_STEMS = (
    "ard", "arm", "behavi", "cand", "clam", "col", "endeav", "fav", "ferv", "flav", "glam", "harb", "hon", "hum",
    "lab", "neighb", "parl", "rig", "rum", "sav", "splend", "tum", "val", "vap", "vig",
)
_OUR_RE = re.compile(
    rf"^(?P<stem>{'|'.join(_OUR_STEMS)})o(?P<u>u?)r(?P<end>s|ed|ing|al|ally|ite|ites|able|ably|er|ers|ful|hood|hoods|less|ist|ists)?$"
)
_WORD_RE = re.compile(r"[a-z]+")


def other_spelling(word: str) -> str | None:
    """``word`` (lower case) spelled the other way, British for American and American for British; None for a word
    these endings do not cover."""
    if match := _ISE_RE.match(word):
        other = "z" if match["s"] == "s" else "s"
        return f"{match['stem']}{other}{match['end']}"
    if match := _OUR_RE.match(word):
        return f"{match['stem']}{'o' if match['u'] else 'ou'}r{match['end'] or ''}"
    return None


def respelled(text: str) -> str:
    """``text`` (lower case) with every word these endings cover spelled the other way (``preference optimization``
    → ``preference optimisation``)."""
    return _WORD_RE.sub(lambda m: other_spelling(m.group()) or m.group(), text)
