"""The conditional headers of the API's writes, walked from the schema: each operation on an object declares exactly the
conditional headers its view reads, so that a generated client offers every precondition the API honours and none it
ignores."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.factories import SmallWiki
from wiki.reports.reviewed import consistency_report_reviewed
from wiki.services.watches import watch_add

pytestmark = pytest.mark.django_db

WRITES = ("put", "patch", "post", "delete")
# A value of each header that refuses the write (412) wherever the header is read: no version is "another-version",
# every object exists, and every dated object changed after 1970.
REFUSING = {"If-Match": '"another-version"', "If-None-Match": "*", "If-Unmodified-Since": "Thu, 01 Jan 1970 00:00:00 GMT"}



def _address(path: str, addresses: dict[str, str]) -> str:
    for template, value in addresses.items():
        if path.startswith(template):
            return path.replace(template, template.replace("{slug}", value).replace("{id}", value))
    return path


def _body(path: str, wiki: SmallWiki) -> dict[str, Any]:
    """A body the operation takes where it validates the body before its preconditions, else an empty one."""
    report = consistency_report_reviewed(cached=False)
    if path.endswith("/findings/dismiss/"):
        finding = next(f for section in report.sections for f in section.open)
        return {"kind": finding.kind, "key": finding.key, "reason": "Not a mistake."}
    if path.endswith("/findings/reopen/"):
        return {"kind": wiki.dismissal.kind, "key": wiki.dismissal.key}
    return {}


def test_every_write_declares_the_conditional_headers_it_reads_and_reads_those_it_declares(small_wiki: SmallWiki) -> None:
    api = APIClient()
    api.force_authenticate(small_wiki.editor)
    schema = api.get("/api/schema/", {"format": "json"}).json()
    addresses = small_wiki.addresses()
    walked = 0
    for path, item in schema["paths"].items():
        for method, operation in item.items():
            if method not in WRITES:
                continue
            declared = {p["name"] for p in operation.get("parameters", []) if p["in"] == "header"} & set(REFUSING)
            # the dated ones last: a write they do not refuse goes through
            for header in REFUSING:
                for target in (small_wiki.page, small_wiki.strict, small_wiki.question):
                    watch_add(user=small_wiki.editor, target=target)  # a watch If-None-Match: * finds there
                sent = {f"HTTP_{header.upper().replace('-', '_')}": REFUSING[header]}
                if header == "If-None-Match":
                    sent["HTTP_IF_MATCH"] = "*"  # an edit needing If-Match reads If-None-Match after it
                response = getattr(api, method)(_address(path, addresses), _body(path, small_wiki), format="json", **sent)
                refused = response.status_code == 412
                assert refused == (header in declared), (method, path, header, response.status_code)
                if refused:
                    assert response.json()["code"] == "precondition_failed"
                    assert "412" in operation["responses"], (method, path)
                elif response.status_code < 300:
                    # what a write goes through with answers its new version where it says so, and only there
                    headers = operation["responses"][str(response.status_code)].get("headers", {})
                    assert response.has_header("ETag") == ("ETag" in headers), (method, path, response.status_code)
                walked += 1
    assert walked > 80
