"""Numbers as a score sheet writes them.

Scores in 3-5-8 are often negative. A hyphen-minus ("-3") is short, sits low and breaks lines
on some phones; the true minus sign (U+2212, "−3") is as wide as a digit and lines up in
columns. Every page that shows a score or a total uses `minus` (the table page through
`scoring.words.signed`, which adds a plus sign too); exports and the API keep plain numbers for
the programs that read them.
"""

from django import template

register = template.Library()

MINUS = "\u2212"


@register.filter
def minus(value):
    """`value` with a true minus sign when it is a negative number, or a number already
    written (`floatformat`'s "-0.9", "-0,9"); anything else unchanged."""
    if isinstance(value, str):
        return MINUS + value[1:] if value[:1] == "-" and value[1:2].isdigit() else value
    if isinstance(value, bool) or not isinstance(value, int | float):
        return value
    return f"{MINUS}{-value}" if value < 0 else str(value)
