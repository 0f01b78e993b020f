"""The name limits for a page's input boxes, from the one rule (scoring.names), so that a
box's maxlength and the server's refusal never disagree: `{% load names %}` then
`maxlength="{% max_name %}"` for a player's name."""

from django import template

from scoring import names

register = template.Library()


@register.simple_tag
def max_name() -> int:
    return names.MAX_NAME
