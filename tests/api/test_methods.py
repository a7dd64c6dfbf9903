"""The methods each address of the API answers, walked from the schema: any other is 405 naming them, whoever sends
it, before credentials are asked for; those it answers ask for them as before."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import URLPattern, URLResolver, get_resolver
from rest_framework.test import APIClient
from rest_framework.views import APIView

from tests.factories import SmallWiki, make_reader
from wiki.api.views.base import WikiAPIView
from wiki.models import ChangeEvent

pytestmark = pytest.mark.django_db

METHODS = ("get", "post", "put", "patch", "delete")
# Addresses the schema leaves out, with the methods they answer.
UNDOCUMENTED = {"/api/v1/": {"get"}, "/api/schema/": {"get"}, "/api/docs/": {"get"}, "/api/redoc/": {"get"}}



def _address(path: str, addresses: dict[str, str]) -> str:
    for template, value in addresses.items():
        if path.startswith(template):
            return path.replace(template, template.replace("{slug}", value).replace("{id}", value)).replace("{number}", "1")
    return path


def _routes(api: APIClient, wiki: SmallWiki) -> dict[str, set[str]]:
    """Every address of the API, with the methods the schema (or, for those it leaves out, the list above) says it
    answers."""
    schema = api.get("/api/schema/", {"format": "json"}).json()
    addresses = wiki.addresses()
    routes = {_address(path, addresses): {method for method in item if method in METHODS} for path, item in schema["paths"].items()}
    assert len(routes) > 40
    return {**routes, **UNDOCUMENTED}


def _allowed(answered: set[str]) -> set[str]:
    return {method.upper() for method in answered} | ({"HEAD"} if "get" in answered else set()) | {"OPTIONS"}


def _allow_header(response: Any) -> set[str]:
    return set(response["Allow"].replace(" ", "").split(","))


def _clients(wiki: SmallWiki) -> dict[str, APIClient]:
    reader, editor = APIClient(), APIClient()
    reader.force_authenticate(make_reader())
    editor.force_authenticate(wiki.editor)
    return {"anonymous": APIClient(), "reader": reader, "editor": editor}


def test_a_method_an_address_does_not_answer_is_405_with_its_methods_whoever_sends_it(small_wiki: SmallWiki) -> None:
    clients = _clients(small_wiki)
    changes = ChangeEvent.objects.count()
    refused = 0
    for address, answered in _routes(clients["editor"], small_wiki).items():
        for method in set(METHODS) - answered:
            for who, client in clients.items():
                response = getattr(client, method)(address, {}, format="json")
                assert response.status_code == 405, (who, method, address, response.status_code)
                assert response.json()["code"] == "method_not_allowed"
                assert _allow_header(response) == _allowed(answered), (who, method, address, response["Allow"])
                refused += 1
    assert refused > 300
    assert ChangeEvent.objects.count() == changes


def test_a_method_not_allowed_reads_in_the_clients_language(small_wiki: SmallWiki) -> None:
    chinese = APIClient().delete(f"/api/v1/pages/{small_wiki.page.slug}/backlinks/", HTTP_ACCEPT_LANGUAGE="zh-hans")
    english = APIClient().delete(f"/api/v1/pages/{small_wiki.page.slug}/backlinks/", HTTP_ACCEPT_LANGUAGE="en")

    assert (chinese.status_code, chinese.json()["detail"]) == (405, "不允许使用 DELETE 方法。")
    assert (english.status_code, english.json()["detail"]) == (405, 'Method "DELETE" not allowed.')


def test_options_and_head_answer_as_before_naming_the_same_methods(small_wiki: SmallWiki) -> None:
    api = APIClient()
    for address, answered in _routes(api, small_wiki).items():
        options = api.options(address)
        # an address for accounts only describes itself to them alone, as before
        assert options.status_code in (200, 401), (address, options.status_code)
        assert _allow_header(options) == _allowed(answered), (address, options["Allow"])
        if "get" in answered:
            assert api.head(address).status_code == api.get(address).status_code, address


def test_a_method_an_address_answers_still_asks_an_anonymous_client_for_credentials(small_wiki: SmallWiki) -> None:
    api, reader = APIClient(), _clients(small_wiki)["reader"]
    schema = api.get("/api/schema/", {"format": "json"}).json()
    addresses = small_wiki.addresses()
    asked = 0
    for path, item in schema["paths"].items():
        for method, operation in item.items():
            if method not in METHODS or not operation.get("security") or {} in operation["security"]:
                continue
            response = getattr(api, method)(_address(path, addresses), {}, format="json")
            assert response.status_code == 401, (method, path, response.status_code)
            assert response.json()["code"] == "not_authenticated" and response.has_header("WWW-Authenticate")
            if method != "get" and "/watchlist/" not in path:  # a reader edits nothing but what it watches
                assert getattr(reader, method)(_address(path, addresses), {}, format="json").status_code == 403, (method, path)
            asked += 1
    assert asked > 30


def _views(patterns: list[Any], prefix: str = "") -> list[type]:
    """The classes of REST framework's views answering under /api/."""
    views: list[type] = []
    for pattern in patterns:
        route = prefix + str(pattern.pattern).lstrip("^")
        if isinstance(pattern, URLResolver):
            views += _views(pattern.url_patterns, route)
        elif isinstance(pattern, URLPattern) and route.startswith("api/"):
            view = getattr(pattern.callback, "cls", getattr(pattern.callback, "view_class", None))
            # Django's own views (the redirect from /api/) look for the handler before anything else
            if view is not None and issubclass(view, APIView):
                views.append(view)
    return views


def test_every_view_of_the_api_checks_the_method_first() -> None:
    views = _views(get_resolver().url_patterns)

    assert len(views) > 30
    assert [view for view in views if not issubclass(view, WikiAPIView)] == []
