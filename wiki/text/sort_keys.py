"""Names in the order a Chinese reader expects a list of them: a Chinese name by its pinyin, among the Latin names.

``Agentic RL``, ``策略梯度`` (cè), ``GRPO``, ``强化学习`` (qiáng), ``SkillForge``, ``中文`` (zhōng): a Chinese dictionary
or app sorts so. No database collation does (the embedded PostgreSQL has no ICU, and ICU's ``zh`` puts every Chinese
name before the Latin ones), so each sortable name is stored beside its key (``wiki.models.sort_keys``), compared
byte by byte (the ``C`` collation).

A key is the name folded as search folds it (full-width letters, Traditional characters, case and accents:
``wiki.search.tokenize.normalize``), spaces single, each Chinese character read as a pinyin syllable with its tone
number (``策略`` → ``ce4 lve4``, the neutral tone 5, ü as ``v``), syllables and words apart; then, after a separator
that sorts before any character of a name, the name as written, so that names read alike (策 and 测, ``GRPO`` and
``grpo``) keep one order.
"""

from __future__ import annotations

import re

from wiki.search.tokenize import normalize

# Han characters, with the extensions and the compatibility ideographs: what pinyin reads.
_HAN = re.compile("[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003134f]")
# Below the space, the least character a folded name holds: a name sorts before every longer name it begins.
SEPARATOR = "\x1f"
# A B-tree index entry holds some 2,700 bytes; a key is cut well within it (its first hundred syllables or so decide).
MAX_KEY_BYTES = 1000


def reading(text: str) -> str:
    """``text`` folded and read as it sorts: ``強化學習 ＧＲＰＯ`` → ``qiang2 hua4 xue2 xi2 grpo``."""
    folded = " ".join(normalize(text).split())
    if not _HAN.search(folded):
        return folded
    # Imported when first needed: its dictionaries take a fifth of a second and some 55 MB to load.
    from pypinyin import Style, lazy_pinyin

    return " ".join(" ".join(lazy_pinyin(folded, style=Style.TONE3, neutral_tone_with_five=True)).split())


def sort_key(text: str) -> str:
    """The key ``text`` sorts by, byte by byte: its :func:`reading`, then the text as written; "" for no text."""
    if not text:
        return ""
    key = f"{reading(text)}{SEPARATOR}{text}"
    encoded = key.encode()
    return key if len(encoded) <= MAX_KEY_BYTES else encoded[:MAX_KEY_BYTES].decode(errors="ignore")
