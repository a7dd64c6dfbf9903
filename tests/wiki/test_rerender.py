from __future__ import annotations

import pytest
from django.core.management import call_command

from tests.factories import make_page
from wiki.models import Page, Revision


@pytest.mark.django_db
def test_stale_html_is_rendered_again_without_a_new_revision(capsys: pytest.CaptureFixture[str]) -> None:
    page = make_page(body="## 摘要\n\n见 [[Credit Assignment]]。（来源：Stale Work: A Study，p.2）\n")
    fresh = page.rendered_html
    Page.objects.filter(pk=page.pk).update(rendered_html="<p>stale</p>")
    revisions = Revision.objects.filter(page=page).count()
    call_command("render_pages")
    assert "1 page rendered anew" in capsys.readouterr().out
    page.refresh_from_db()
    assert page.rendered_html == fresh
    assert Revision.objects.filter(page=page).count() == revisions


@pytest.mark.django_db
def test_creating_a_wanted_page_updates_the_links_to_it(db: None) -> None:
    linking = make_page(slug="linking", body="See [[Brand New Topic]].")
    assert "wanted" in linking.rendered_html
    make_page(slug="brand-new-topic", title="Brand New Topic")
    linking.refresh_from_db()
    assert "wanted" not in linking.rendered_html
