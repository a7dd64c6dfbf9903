"""The bilingual glossary: each term's Chinese and English names, their aliases, a definition, and what it names
in the taxonomy. Search expands a query naming a term to all its names; a wiki link to a term without a page of
its own leads to its entry."""

from __future__ import annotations

import re
import unicodedata

from django.contrib.postgres.fields import ArrayField
from django.contrib.postgres.indexes import GinIndex
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from classifier.taxonomy import Fact
from wiki.markdown.wikilinks import link_key
from wiki.models.pages import Page
from wiki.models.rules import MAX_TEXT_CHARS, text_limit, validate_line, validate_source_slug
from wiki.models.sort_keys import SortKeyed, SortKeyedQuerySet, SortKeyField
from wiki.taxonomy import FACT_LABELS, MECHANISM_CHOICES, VERDICT_CHOICES

MAX_NAME_CHARS = 100
FACT_CHOICES = [(f.value, FACT_LABELS[f]) for f in Fact]
_SPACES = re.compile(r"\s+")


def name_key(name: str) -> str:
    """How two names are compared: NFKC (full-width letters folded), lower case, single spaces."""
    return _SPACES.sub(" ", unicodedata.normalize("NFKC", name)).strip().lower()


class GlossaryTermQuerySet(SortKeyedQuerySet["GlossaryTerm"]):
    def listed(self, *, by_pinyin: bool = False) -> GlossaryTermQuerySet:
        """In English-name order whatever the case (``actor-critic`` beside ``Actor-Critic``, before ``ReAct``), or
        with ``by_pinyin`` in the order of the Chinese names as Chinese readers sort them (策略梯度, cè, before 环境,
        huán; ``wiki.text.sort_keys``), with the defining page's slug and title joined."""
        order = ZH_ORDER if by_pinyin else ORDER
        return self.select_related("page").only(*LISTED_FIELDS).order_by(*order)

    def sharing_names(self, names: list[str]) -> GlossaryTermQuerySet:
        """Terms that already have one of ``names`` (compared by :func:`name_key`) as a name or alias."""
        return self.filter(name_keys__overlap=[name_key(n) for n in names])

    def linked_as(self, slugs: set[str]) -> GlossaryTermQuerySet:
        """Terms a wiki link to any of ``slugs`` leads to (a name or alias, slugified as a link target is)."""
        return self.filter(link_keys__overlap=sorted(slugs)).only("id", "slug", "link_keys").order_by("id")

    def slugs_linked_as(self, slugs: set[str]) -> dict[str, str]:
        """Which term's entry each of ``slugs`` (link targets no page answers) leads to: a term whose own slug is the
        link's wins over one that only has a name slugifying to it, else the oldest. One query, none for no slug."""
        terms: dict[str, str] = {}
        for term in self.linked_as(slugs) if slugs else ():
            for key in slugs.intersection(term.link_keys):
                if key not in terms or key == term.slug:
                    terms[key] = term.slug
        return terms


# The names as a dictionary sorts them (``wiki.text.sort_keys``), where the database's collation may put every capital
# first.
ORDER = ("name_en_sort", "id")
ZH_ORDER = ("name_zh_sort", "id")
LISTED_FIELDS = ("id", "slug", "name_zh", "name_en", "aliases_zh", "aliases_en", "definition_zh", "definition_en",
                 "mechanism", "verdict", "fact", "page__slug", "page__title", "page__deleted_at", "updated_at")


class GlossaryTerm(SortKeyed):
    slug = models.CharField(_("address"), max_length=100, unique=True, validators=[validate_source_slug],
                            help_text=_("Latin letters, digits and hyphens: the address of its entry."))
    name_zh = models.CharField(_("Chinese name"), max_length=MAX_NAME_CHARS, validators=[validate_line])
    name_en = models.CharField(_("English name"), max_length=MAX_NAME_CHARS, validators=[validate_line])
    aliases_zh = ArrayField(models.CharField(max_length=MAX_NAME_CHARS, validators=[validate_line]), default=list,
                            blank=True, verbose_name=_("Chinese aliases"))
    aliases_en = ArrayField(models.CharField(max_length=MAX_NAME_CHARS, validators=[validate_line]), default=list,
                            blank=True, verbose_name=_("English aliases and abbreviations"))
    definition_zh = models.TextField(_("definition (Chinese)"), blank=True, validators=text_limit(MAX_TEXT_CHARS))
    definition_en = models.TextField(_("definition (English)"), blank=True, validators=text_limit(MAX_TEXT_CHARS))
    mechanism = models.CharField(_("mechanism"), max_length=40, blank=True, choices=MECHANISM_CHOICES,
                                 help_text=_("The mechanism this term names: a search for it ranks the works classified so first."))
    verdict = models.CharField(_("verdict"), max_length=20, blank=True, choices=VERDICT_CHOICES,
                               help_text=_("The verdict this term names: a search for it ranks the works judged so first."))
    fact = models.CharField(_("rubric fact"), max_length=30, blank=True, choices=FACT_CHOICES)
    page = models.ForeignKey(Page, null=True, blank=True, on_delete=models.SET_NULL, related_name="glossary_terms",
                             verbose_name=_("defining page"))
    # Derived on save: every name compared as name_key does (no name may belong to two terms), and as a wiki
    # link's key (wiki.markdown.wikilinks.link_key: [[Policy Gradient]] and [[策略梯度]] lead here, and [[強化學習]] to
    # the term 强化学习).
    name_keys = ArrayField(models.CharField(max_length=MAX_NAME_CHARS), default=list, editable=False,
                           verbose_name=_("Names as compared"))
    link_keys = ArrayField(models.CharField(max_length=200), default=list, editable=False,
                           verbose_name=_("Link targets"))
    # Derived on save too: the Chinese glossary's order (the Chinese names in pinyin) and the English one.
    name_zh_sort = SortKeyField(_("Chinese name as sorted"), source="name_zh")
    name_en_sort = SortKeyField(_("English name as sorted"), source="name_en")
    updated_at = models.DateTimeField(_("Updated at"), auto_now=True)

    objects = GlossaryTermQuerySet.as_manager()

    class Meta:
        ordering = ORDER
        verbose_name = _("glossary term")
        verbose_name_plural = _("glossary terms")
        indexes = [
            GinIndex(fields=["name_keys"], name="glossaryterm_name_keys"),
            GinIndex(fields=["link_keys"], name="glossaryterm_link_keys"),
            models.Index(fields=["name_en_sort", "id"], name="glossaryterm_name_en_sort"),
            models.Index(fields=["name_zh_sort", "id"], name="glossaryterm_name_zh_sort"),
        ]

    def __str__(self) -> str:
        return f"{self.name_zh} / {self.name_en}"

    def get_absolute_url(self) -> str:
        return reverse("wiki:glossary-detail", kwargs={"slug": self.slug})

    @property
    def names(self) -> list[str]:
        """Every name, the Chinese and English names first; each once."""
        found: dict[str, str] = {}
        for name in (self.name_zh, self.name_en, *self.aliases_zh, *self.aliases_en):
            if name.strip():
                found.setdefault(name_key(name), name.strip())
        return list(found.values())

    @property
    def defining_page(self) -> Page | None:
        """The page defining the term, unless it was deleted."""
        return self.page if self.page is not None and self.page.deleted_at is None else None

    @property
    def aliases(self) -> list[str]:
        return [*self.aliases_zh, *self.aliases_en]

    def derive_keys(self) -> None:
        self.name_keys = [name_key(n) for n in self.names]
        self.link_keys = sorted({self.slug, *(s for s in (link_key(n) for n in self.names) if s)})
