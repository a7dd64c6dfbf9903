from collections import Counter
from collections.abc import Callable
from urllib.parse import urlencode

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase, HttpResponsePermanentRedirect
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext

from classifier.taxonomy import Mechanism, Verdict
from wiki.caching.responses import cached_for_readers
from wiki.caching.values import cached_by_content, cached_value
from wiki.graph import draw, map_graph
from wiki.graph.build import SubjectRef, now_named
from wiki.graph.compare import Comparison, comparison_for, pick_offer
from wiki.graph.context import ContrastPicture, contrast_picture, local_graph_for
from wiki.graph.forms import LocalGraphForm, MapFilterForm, WorkPickForm, split_subjects
from wiki.graph.layout import VERDICT_SHAPES
from wiki.graph.nodes import NODE_KINDS, graph_text, node_id
from wiki.taxonomy import mechanisms_shown, verdicts_shown
from wiki.views.merged_works import merged_works_redirect, works_query
from wiki.views.pages import moved_page, same_view_url


def _legend() -> dict[str, object]:
    return {
        "mechanisms": mechanisms_shown(),
        "verdicts": [(v, VERDICT_SHAPES[v.value]) for v in verdicts_shown()],
    }


def _map(mechanism: str | None, verdict: str | None) -> dict[str, object]:
    graph, summary = map_graph(mechanism=mechanism, verdict=verdict)

    def figure() -> str:
        drawing = draw(graph, positions="map", limit=len(graph))
        # the works the map had no room for are left out of its picture too: its caption says so, as every graph's does
        drawing.hidden += summary.hidden
        if summary.hidden:
            drawing.left_out["work"] = drawing.left_out.get("work", 0) + summary.hidden
        query = urlencode({k: v for k, v in (("mechanism", mechanism), ("verdict", verdict)) if v})
        return render_to_string("wiki/graph/svg.html", {
            "drawing": drawing, "svg_id": "works-map", "svg_title": gettext("Map of works by mechanism"),
            "svg_desc": gettext("Works grouped around their mechanism, with contrast edges between them."),
            "more_url": reverse("wiki:source-list") + (f"?{query}" if query else "")})

    # Laid out and drawn once for what the map holds: after a write that changes nothing on it (a page's text, a
    # claim), its readers wait for the map's queries, not for its layout and its markup.
    content = f"{graph_text(graph)}\n{mechanism}:{verdict}:{summary.hidden}"
    return {"figure": cached_by_content("map-figure", content, figure), "summary": summary,
            "counts": [(m, [(v, summary.counts.get(m.value, Counter()).get(v.value, 0)) for v in Verdict])
                       for m in Mechanism]}


@cached_for_readers(*MapFilterForm.base_fields)
def graph_map(request: HttpRequest) -> HttpResponse:
    form = MapFilterForm(request.GET)
    if not form.is_valid():
        return render(request, "wiki/graph/map.html", {"form": form, **_legend()}, status=400)
    mechanism, verdict = form.cleaned_data["mechanism"] or None, form.cleaned_data["verdict"] or None
    drawn = cached_value(request, "map", mechanism, verdict, build=lambda: _map(mechanism, verdict))
    return render(request, "wiki/graph/map.html",
                  {**drawn, "form": form, "mechanism": mechanism, "verdict": verdict, **_legend()})


@cached_for_readers(*LocalGraphForm.base_fields)
def graph_local(request: HttpRequest, kind: str, key: str) -> HttpResponseBase:
    if kind not in NODE_KINDS:
        raise Http404(f"No kind of node “{kind}”.")
    if kind == "component" and "/" not in key and (ref := SubjectRef.parse(key.replace("：", ":"))).component:
        # a component as every form and the contrast addresses write it, work:component
        return HttpResponsePermanentRedirect(same_view_url(request, key=f"{ref.source}/{ref.component}"))
    local = local_graph_for(request, node_id(kind, key), standalone=True)
    if local is None:
        if kind == "page" and (moved := moved_page(request, key, argument="key")) is not None:
            return moved
        if kind == "source" and (merged := now_named([SubjectRef(key)])):
            return HttpResponsePermanentRedirect(same_view_url(request, key=merged[0].source))
        raise Http404(f"Nothing in the wiki is called {kind}:{key}.")
    # choices the form refuses are a bad request, as on the map; the neighbourhood is drawn as it would be without them
    status = 400 if local.form.errors else 200
    return render(request, "wiki/graph/local.html", {"local_graph": local, **_legend()}, status=status)


def _contrast(request: HttpRequest, raw: str, url: Callable[[list[SubjectRef]], str] | None = None) -> HttpResponseBase:
    form = WorkPickForm({"works": raw, "q": request.GET.get("q", "")})
    context: dict[str, object] = {"form": form, **_legend()}
    if not form.is_valid():
        return render(request, "wiki/graph/contrast.html", context, status=400)
    works = form.cleaned_data["works"]
    comparison, picture = cached_value(request, "contrast", *works, build=lambda: _comparison_and_picture(works))
    if comparison.unknown and (merged := merged_works_redirect(request, works, url)) is not None:
        return merged
    context["comparison"] = comparison
    context["chosen"], context["choices"], context["more_choices"] = pick_offer(comparison, form.cleaned_data["q"])
    if comparison.unknown:
        return render(request, "wiki/graph/contrast.html", context, status=404)
    if picture is not None:
        context["picture"] = picture
    return render(request, "wiki/graph/contrast.html", context)


def _comparison_and_picture(works: list[SubjectRef]) -> tuple[Comparison, ContrastPicture | None]:
    comparison = comparison_for(works)
    if comparison.unknown or len(comparison.columns) < 2:
        return comparison, None
    return comparison, contrast_picture([c.ref for c in comparison.columns])


def _pair_url(request: HttpRequest, refs: list[SubjectRef]) -> str:
    """The pair's own address, or the address for several works when a merge left one."""
    if len(refs) != 2:
        return works_query(request, refs, path=reverse("wiki:contrast-multi"))
    return same_view_url(request, left=str(refs[0]), right=str(refs[1]))


@cached_for_readers("q")
def contrast(request: HttpRequest, left: str, right: str) -> HttpResponseBase:
    return _contrast(request, f"{left},{right}", lambda refs: _pair_url(request, refs))


@cached_for_readers("works", "q")
def contrast_multi(request: HttpRequest) -> HttpResponseBase:
    return _contrast(request, split_subjects(request.GET.getlist("works")))


__all__ = ["contrast", "contrast_multi", "graph_local", "graph_map"]
