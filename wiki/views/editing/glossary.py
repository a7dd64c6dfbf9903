"""Adding and changing glossary terms."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext_lazy as _

from wiki.forms.glossary import GlossaryTermForm
from wiki.models import GlossaryTerm
from wiki.services.changes import StaleEdit
from wiki.services.glossary import glossary_term_create, glossary_term_update
from wiki.views.editing import editor_required, stale_form


@editor_required("wiki.add_glossaryterm", forms=[GlossaryTermForm])
def glossary_create(request: HttpRequest) -> HttpResponse:
    form = GlossaryTermForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            term = glossary_term_create(fields=form.term_fields(), user=request.user)
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, _("Term added to the glossary."))
            return redirect(term)
    return render(request, "wiki/edit/glossary_form.html", {"form": form, "term": None})


@editor_required("wiki.change_glossaryterm", forms=[GlossaryTermForm])
def glossary_edit(request: HttpRequest, slug: str) -> HttpResponse:
    term = get_object_or_404(GlossaryTerm.objects.select_related("page"), slug=slug)
    if request.method != "POST":
        form = GlossaryTermForm(instance=term, initial={"loaded_at": term.updated_at.isoformat()})
        return render(request, "wiki/edit/glossary_form.html", {"form": form, "term": term})
    form = GlossaryTermForm(request.POST, instance=GlossaryTerm.objects.select_related("page").get(pk=term.pk))
    if form.is_valid():
        try:
            term = glossary_term_update(term=term, fields=form.term_fields(), user=request.user,
                                        loaded_at=form.cleaned_data["loaded_at"])
        except StaleEdit as stale:
            stale_form(form, stale, what="glossary")
            return render(request, "wiki/edit/glossary_form.html", {"form": form, "term": stale.current, "stale": True},
                          status=409)
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, _("Term saved."))
            return redirect(term)
    return render(request, "wiki/edit/glossary_form.html", {"form": form, "term": term})
