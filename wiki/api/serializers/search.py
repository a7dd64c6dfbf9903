from __future__ import annotations

from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy
from rest_framework import serializers

from wiki.models import SearchDocument
from wiki.models.classifications import MECHANISM_CHOICES, VERDICT_CHOICES
from wiki.search.query import COUNT_CAP, MAX_QUERY_LENGTH

MAX_PAGE = 1_000


class SearchParamsSerializer(serializers.Serializer):
    q = serializers.CharField(max_length=MAX_QUERY_LENGTH, allow_blank=True,
                              help_text="Words in Chinese, English or both (信用分配, GRPO, ES 参数), accents and British or American "
                                        "spelling aside, or a work's arXiv ID, DOI or BibTeX key; blank finds nothing. "
                                        '"Quoted words" are found in that order, next to each other, as written (not by '
                                        "a glossary term's other names); -word and -\"a phrase\" leave out what "
                                        "contains them (a hyphen inside a word is part of it); GRPO OR PPO finds either.")
    kind = serializers.ChoiceField(choices=SearchDocument.Kind.choices, required=False, help_text="Only this kind of result.")
    mechanism = serializers.ChoiceField(choices=MECHANISM_CHOICES, required=False, help_text="Sources with a classification (the work's or a component's) of this mechanism; with verdict, one classification having both.")
    verdict = serializers.ChoiceField(choices=VERDICT_CHOICES, required=False, help_text="Sources with a classification (the work's or a component's) of this verdict.")
    page = serializers.IntegerField(min_value=1, max_value=MAX_PAGE, default=1, help_text=gettext_lazy("Page of results, from 1 (in each kind)."))
    page_size = serializers.IntegerField(min_value=1, max_value=50, default=10, help_text=gettext_lazy("Results per kind on a page."))


class SearchNamesParamsSerializer(serializers.Serializer):
    q = serializers.CharField(max_length=MAX_QUERY_LENGTH, allow_blank=True,
                              help_text=gettext_lazy("The start of a work's short name or a page's title (two characters or more, or one "
                                                     "Chinese character)."))
    limit = serializers.IntegerField(min_value=1, max_value=20, default=8, help_text=gettext_lazy("Names at most."))


class SearchHitSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=SearchDocument.Kind.choices)
    object_id = serializers.IntegerField()
    title = serializers.CharField()
    url = serializers.CharField(help_text=gettext_lazy("The result in the browser."))
    rank = serializers.FloatField()
    title_html = serializers.CharField(help_text=gettext_lazy("The title, HTML-escaped, matches in <mark>."))
    snippet_html = serializers.CharField(help_text=gettext_lazy("An excerpt around the first match, HTML-escaped, matches in <mark>."))
    mechanism = serializers.ChoiceField(choices=MECHANISM_CHOICES, allow_blank=True,
                                        help_text="A work's own mechanism, else its first component's; empty for the other kinds.")
    verdict = serializers.ChoiceField(choices=VERDICT_CHOICES, allow_blank=True, help_text="The verdict beside that mechanism.")
    mechanisms = serializers.ListField(
        child=serializers.ChoiceField(choices=MECHANISM_CHOICES),
        help_text=gettext_lazy("Each classification's mechanism: the work's own, then its components' by name."),
    )
    verdicts = serializers.ListField(child=serializers.ChoiceField(choices=VERDICT_CHOICES),
                                     help_text=gettext_lazy("The verdict of each, in the same order as mechanisms."))


class SearchGroupSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=SearchDocument.Kind.choices)
    label = serializers.CharField()  # type: ignore[assignment]  # a field named like Field.label
    total = serializers.IntegerField(help_text=format_lazy(
        gettext_lazy("Matches of this kind, counted up to {cap} (or offset + limit if larger)."), cap=COUNT_CAP))
    total_capped = serializers.BooleanField(help_text=gettext_lazy("True when there are more matches than total."))
    results = SearchHitSerializer(many=True, source="hits", help_text=gettext_lazy("This page's results of the kind: none when they are all on other pages."))


class SearchTermSerializer(serializers.Serializer):
    """A glossary term: the query named it, so the search looked for every one of its names."""

    slug = serializers.CharField()
    name_zh = serializers.CharField()
    name_en = serializers.CharField()
    names = serializers.ListField(child=serializers.CharField(), help_text=gettext_lazy("Every name searched for it, in both languages."))
    mechanism = serializers.ChoiceField(choices=MECHANISM_CHOICES, allow_blank=True,
                                        help_text="The mechanism it names, whose works come first.")
    verdict = serializers.ChoiceField(choices=VERDICT_CHOICES, allow_blank=True, help_text="The verdict it names, whose works come first.")


class SearchSuggestionSerializer(serializers.Serializer):
    """A glossary term close to what was typed, offered when nothing matched."""

    slug = serializers.CharField(source="term.slug")
    name = serializers.CharField(help_text=gettext_lazy("The term's name closest to the query: search for it instead."))
    name_zh = serializers.CharField(source="term.name_zh")
    name_en = serializers.CharField(source="term.name_en")


class SearchCloseNameSerializer(serializers.Serializer):
    """A work or page named as what was typed, or close to it."""

    kind = serializers.ChoiceField(choices=[("source", "source"), ("page", "page")])
    name = serializers.CharField(help_text=gettext_lazy("The work's short name or the page's title."))
    slug = serializers.CharField()
    url = serializers.CharField(help_text=gettext_lazy("The work or page in the browser."))


class SearchNameSerializer(SearchCloseNameSerializer):
    """A work, a work's component, a page or a glossary term whose name starts with what was typed."""

    kind = serializers.ChoiceField(choices=[("source", "source"), ("component", "component"), ("page", "page"), ("term", "term")])
    name = serializers.CharField(help_text=gettext_lazy("The work's short name, the component's work's and its own (Shepherd Tree-GRPO), "
                                                        "the page's title or the term's name that matched."))
    slug = serializers.CharField(help_text=gettext_lazy("The work's, page's or term's; a component's work's."))
    url = serializers.CharField(help_text=gettext_lazy("The work, its component's classification on it, the page or the glossary entry in the browser."))


class SearchPieceSerializer(serializers.Serializer):
    text = serializers.CharField()
    phrase = serializers.BooleanField(help_text=gettext_lazy("Quoted: its words in this order, next to each other, as written."))


class SearchUnderstoodSerializer(serializers.Serializer):
    """What the query's quotes, minus signs and ORs asked for; all empty for plain words."""

    phrases = SearchPieceSerializer(many=True, help_text=gettext_lazy("Phrases every result holds."))
    either = serializers.ListField(source="alternatives", child=SearchPieceSerializer(many=True),
                                   help_text=gettext_lazy("Each OR: the words or phrases any one of which a result holds."))
    excluded = SearchPieceSerializer(many=True, help_text=gettext_lazy("Words and phrases no result holds."))


class SearchResultsSerializer(serializers.Serializer):
    query = serializers.CharField()
    total = serializers.IntegerField(help_text=gettext_lazy("Matches of every kind (the sum of the groups' totals), the same on every page."))
    total_capped = serializers.BooleanField()
    page = serializers.IntegerField()
    page_size = serializers.IntegerField()
    terms = SearchTermSerializer(many=True, help_text=gettext_lazy("Glossary terms the query named, each searched by all its names."))
    suggestions = SearchSuggestionSerializer(many=True, help_text=gettext_lazy("Close glossary terms when nothing matched."))
    close = SearchCloseNameSerializer(many=True, help_text=gettext_lazy("Works and pages named close to the query when nothing matched "
                                                                        "(a search without filters), closest first."))
    exact = SearchCloseNameSerializer(many=True, help_text=gettext_lazy("Works and pages named exactly as the query, case, spacing and "
                                                                        "accents aside, and the work whose arXiv ID, DOI or BibTeX key it "
                                                                        "is (the first page of a search without filters), works first."))
    understood = SearchUnderstoodSerializer()
    groups = SearchGroupSerializer(many=True, help_text=gettext_lazy("One per kind that matched, in the order pages, claims, sources, questions."))
