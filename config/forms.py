"""How every form field is drawn: one template and one label style for the whole site.

Django's default field template writes the label with a colon after it (``label_tag``), while
our hand-written fields don't; phones show labels above the input, where a colon is noise.
Drawing every ``as_field_group`` through ``templates/forms/field.html`` keeps them the same,
and `Form` (every form of the site's) sets ``label_suffix=""`` for whatever else calls
``label_tag``, such as ``form.as_p``.
"""

from django import forms
from django.forms.renderers import TemplatesSetting


class SiteFormRenderer(TemplatesSetting):
    field_template_name = "forms/field.html"


class Form(forms.Form):
    """A form whose labels carry no colon, however they are drawn."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)
