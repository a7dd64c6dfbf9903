from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from wiki.forms.contrasts import ContrastForm
from wiki.services.contrasts import contrast_create
from wiki.views.editing import editor_required

# The button that sends the form to be shown again with the components and claims of the works typed in it, saving nothing.
SHOW_CHOICES = "show_choices"


@editor_required("wiki.add_contrast", forms=[ContrastForm])
def contrast_create_view(request: HttpRequest) -> HttpResponse:
    if request.method == "POST" and SHOW_CHOICES in request.POST:
        form = ContrastForm.shown_again(request.POST)
    elif request.method == "POST":
        form = ContrastForm(request.POST)
    else:
        form = ContrastForm(initial=request.GET.dict())
    if form.is_bound and form.is_valid():
        try:
            contrast = contrast_create(**form.cleaned_data, user=request.user)
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, _("Contrast added: %(axis)s.") % {"axis": contrast.axis})
            return redirect(contrast.left)
    return render(request, "wiki/edit/contrast_form.html", {"form": form, "show_choices": SHOW_CHOICES})
