"""An entry written otherwise than the work the wiki keeps (its subtitle after a dash, an author's accent in LaTeX, an
arXiv ID with its version) is reported by the API's import as that work, not created again."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.factories import make_source
from wiki.models import Source

pytestmark = pytest.mark.django_db

TOOLFORMER = "Language Models Can Teach Themselves to Use Tools"
BODY = f"""@inproceedings{{Schick2023Toolformer,
  author = {{Schick, Timo and Dwivedi-Yu, Jane and Dess\\`{{i}}, Roberto and Raileanu, Roberta}},
  title = {{Toolformer -- {TOOLFORMER}}},
  year = {{2023}},
  eprint = {{2302.04761v1}}
}}
@inproceedings{{Schick2023Toolformer2,
  author = {{Schick, Timo}},
  title = {{Toolformer 2 -- Models That Use More Tools}},
  year = {{2023}}
}}
"""


def test_the_api_import_finds_the_work_cited_by_its_name_and_keeps_its_sequel_apart(editor_api: APIClient) -> None:
    cited = make_source(title="Toolformer")
    response = editor_api.post("/api/v1/sources/import/", data=BODY.encode(), content_type="application/x-bibtex")
    assert response.status_code == 200, response.content
    data = response.json()
    assert [entry["slug"] for entry in data["duplicate"]] == [cited.slug]
    (created,) = data["created"]
    assert created["slug"] != cited.slug and Source.objects.count() == 2
