"""The venues page's form (``web.views.venues``): a venue's name and number of tables;
the service (``tournaments.venues``) checks the rest again, as the API's do."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy

from tournaments.venues import MAX_VENUE_TABLES


class VenueForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Name"), max_length=100)
    tables = forms.IntegerField(
        label=gettext_lazy("Tables"),
        required=False,
        min_value=1,
        max_value=MAX_VENUE_TABLES,
        help_text=gettext_lazy(
            "How many tables it has: it takes that many of a round's matches, the top ones "
            "first. Empty: an even share of the rest."
        ),
    )
    ordering = forms.IntegerField(
        label=gettext_lazy("Order"), required=False, min_value=0, max_value=999
    )
