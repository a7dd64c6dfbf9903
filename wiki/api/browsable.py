"""What the browsable API's pages call an address and say of it, in the reader's language.

REST framework names a page after its view's class (``Source List``) and describes it with the class's docstring, in
English whatever the reader reads. The pages take instead what the OpenAPI schema says of the operation they show,
both translated: its summary and its description. ``OPTIONS`` keeps REST framework's name and docstring: its JSON is
the same in every language."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from django.urls import Resolver404, get_script_prefix, resolve
from rest_framework.request import Request
from rest_framework.utils.formatting import dedent, markup_description

if TYPE_CHECKING:
    # not at run time: REST framework's views import the renderers, which import this module
    from drf_spectacular.openapi import AutoSchema

def operation_schema(view: Any, method: str) -> AutoSchema | None:
    """The schema of the operation ``method`` runs on ``view`` (its action's, on a viewset), as ``extend_schema``
    declares it; None for a view the schema leaves out."""
    action = getattr(view, "action", None)
    if action is None and "action" in vars(view) and not hasattr(view, "action_map"):
        # REST framework's forms leave a view that is no viewset an ``action`` of None once they are drawn, which the
        # schema would take for the name of the method answering: such a view has none
        del view.action
    handler = getattr(view, action, None) if action else getattr(view, method.lower(), None)
    schema_class = getattr(handler, "kwargs", {}).get("schema")
    schema: AutoSchema | None = schema_class() if schema_class is not None else view.schema
    if schema is None:
        return None
    schema.view, schema.method = view, method
    return schema


def page_name(view: Any, method: str) -> str:
    """The operation's summary; else the name the view gives its page (``browsable_name``), else REST framework's."""
    schema = operation_schema(view, method)
    summary = schema.get_summary() if schema is not None else None
    return str(summary or getattr(view, "browsable_name", None) or view.get_view_name())


def page_description(view: Any, method: str) -> str:
    """The operation's description in the reader's language, as HTML (from Markdown, as the docs pages show it;
    safe)."""
    from wiki.api.schema import translated_description  # not at import: the schema imports REST framework's views

    schema = operation_schema(view, method)
    description = translated_description(schema) if schema is not None else ""
    if not description:
        return ""
    description_html: str = markup_description(dedent(description))
    return description_html


def name_at(url: str, request: Request) -> str | None:
    """The name of the page at ``url`` (read with GET, as ``request``), or None when no view of the API answers it."""
    path = urlsplit(url).path[len(get_script_prefix().rstrip("/")):]
    try:
        match = resolve(path)
    except Resolver404:
        return None
    cls = getattr(match.func, "cls", None)  # set by REST framework's as_view() alone
    if cls is None:
        return None
    view = cls(**getattr(match.func, "initkwargs", {}))
    # as the schema's generator sets them: extend_schema reads the request and the address's arguments
    view.request, view.args, view.kwargs = request, match.args, match.kwargs
    if actions := getattr(match.func, "actions", None):
        view.action = actions.get("get")
    return page_name(view, "GET")


def extra_action_names(view: Any, urls: dict[str, str]) -> dict[str, str]:
    """``urls`` (the viewset's extra actions, by REST framework's names for them) by the actions' own names."""
    named: dict[str, str] = {}
    for action in view.get_extra_actions():
        sibling = view.__class__(**action.kwargs)
        url = urls.get(sibling.get_view_name())
        if url is not None:
            sibling.request, sibling.args, sibling.kwargs = view.request, view.args, view.kwargs
            sibling.action = action.__name__
            named[page_name(sibling, next(iter(action.mapping), "get").upper())] = url
    return named
