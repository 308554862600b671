"""``{% webhooks_section tournament %}``: the manage page's webhooks section (hooks, the
form to add one, each hook's delivery log). The manage page belongs to ``web``; this
app brings its own section, as ``clubs`` brings seeding by rating."""

from __future__ import annotations

from typing import Any

from django import template

from tournaments.models import Tournament
from webhooks import selectors
from webhooks.views import WebhookForm

register = template.Library()


@register.inclusion_tag("webhooks/_section.html", takes_context=True)
def webhooks_section(context: template.Context, tournament: Tournament) -> dict[str, Any]:
    hooks = [
        (hook, selectors.delivery_log(hook=hook))
        for hook in selectors.hooks_of(tournament=tournament)
    ]
    return {
        "tournament": tournament,
        "hooks": hooks,
        "form": WebhookForm(),
        "csrf_token": context.get("csrf_token"),
    }
