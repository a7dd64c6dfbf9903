"""Markup from MediaWiki that this wiki reads otherwise: ``#REDIRECT [[X]]`` (a heading here), ``[[Category:…]]``,
``[[User:…]]`` and other namespaces (links to pages of those names), ``~~~~`` (text, not a signature). An editor who
writes them is told, at preview and save, what the text does here and what to do instead; nothing is refused."""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass
from enum import StrEnum

from django.utils.translation import gettext_lazy

from wiki.markdown.citations import blank_non_prose
from wiki.markdown.wikilinks import COLON_RE, WIKILINK_RE, split_target

MAX_EXCERPT = 80

_REDIRECT_RE = re.compile(r"^[ \t]{0,3}#[ \t]*(?:redirect|重定向)\b[^\n]*", re.IGNORECASE | re.MULTILINE)
_SIGNATURE_RE = re.compile(r"(?<!~)~{3,5}(?!~)")

_CATEGORY = {"category", "分类", "分類", "类别", "類別"}
_USER = {"user", "用户", "用戶", "user talk", "用户讨论", "用戶討論", "用户对话"}
_NAMESPACES = {
    "file", "image", "media", "template", "help", "talk", "special", "project", "wikipedia", "mediawiki", "module",
    "portal", "draft", "w", "wikt", "wiktionary", "commons", "meta",
    "文件", "檔案", "档案", "图像", "圖像", "媒体", "媒體", "模板", "帮助", "幫助", "讨论", "討論", "特殊", "维基百科",
    "維基百科", "模块", "模組", "主题", "主題", "草稿",
}


class ForeignKind(StrEnum):
    REDIRECT = "redirect"
    CATEGORY = "category"
    USER = "user"
    NAMESPACE = "namespace"
    SIGNATURE = "signature"


# What each construct does here and what to do instead.
_ADVICE = {
    ForeignKind.REDIRECT: gettext_lazy(
        "This makes no redirect here: it shows as a heading. To have another name lead to a page, move the page "
        "(its former title and address keep leading to it); to send readers to another page, link to it in a "
        "sentence."),
    ForeignKind.CATEGORY: gettext_lazy(
        "This wiki has no categories: this is a link to a page of that name. Group pages by linking them from "
        "one another, or through the glossary (a term and the page that defines it)."),
    ForeignKind.USER: gettext_lazy(
        "This wiki has no user pages: this is a link to a page of that name. Write the person's name as plain "
        "text."),
    ForeignKind.NAMESPACE: gettext_lazy(
        "This wiki has no namespaces (File:, Template:, Talk: …): this is a link to a page of that name. Link "
        "a page by its title or address."),
    ForeignKind.SIGNATURE: gettext_lazy(
        "Signatures are not expanded here: this shows as typed. The history records who saved each revision "
        "and when; remove it."),
}


@dataclass(frozen=True)
class ForeignMarkup:
    """One construct of another wiki's markup: which, as typed (cut to :data:`MAX_EXCERPT` characters), and its line."""

    kind: ForeignKind
    text: str
    line: int

    @property
    def advice(self) -> str:
        """What the text does here and what to do instead, in the active language."""
        return str(_ADVICE[self.kind])


def _namespace(target: str) -> ForeignKind | None:
    """The kind of namespace ``target`` (a link's page part) opens with, if any: ``Category:…``, ``:Category:…``,
    ``User talk:…``, ``分类：…``."""
    parts = COLON_RE.split(target.removeprefix(":").lstrip(), maxsplit=1)
    if len(parts) < 2 or not parts[1].strip():
        return None
    prefix = " ".join(parts[0].replace("_", " ").split()).casefold()
    if prefix in _CATEGORY:
        return ForeignKind.CATEGORY
    if prefix in _USER:
        return ForeignKind.USER
    if prefix in _NAMESPACES or prefix.endswith(" talk"):
        return ForeignKind.NAMESPACE
    return None


def _excerpt(text: str) -> str:
    text = text.strip()
    return text if len(text) <= MAX_EXCERPT else text[: MAX_EXCERPT - 1] + "…"


def foreign_markup(text: str, *, linked: Collection[str] = ()) -> list[ForeignMarkup]:
    """The constructs of MediaWiki markup in ``text`` (outside code and HTML comments), in the order they come.

    ``linked``: the link targets (as typed) that lead to a page or a glossary term; a link naming one of them is a
    link like any other (a page may be titled ``Category: notes``), never foreign markup."""
    prose = blank_non_prose(text)
    found: list[tuple[int, ForeignKind, str]] = []
    for match in _REDIRECT_RE.finditer(prose):
        found.append((match.start(), ForeignKind.REDIRECT, match.group(0)))
    redirects = [(m.start(), m.end()) for m in _REDIRECT_RE.finditer(prose)]
    for match in re.finditer(WIKILINK_RE, prose):
        if any(start <= match.start() < end for start, end in redirects):
            continue  # said once, as the redirect it was meant to be
        page, _section = split_target(match.group(1))
        kind = _namespace(page)
        if kind is not None and page not in linked:
            found.append((match.start(), kind, match.group(0)))
    for match in _SIGNATURE_RE.finditer(prose):
        found.append((match.start(), ForeignKind.SIGNATURE, match.group(0)))
    return [ForeignMarkup(kind=kind, text=_excerpt(text[start:start + len(typed)]), line=text.count("\n", 0, start) + 1)
            for start, kind, typed in sorted(found, key=lambda item: item[0])]
