"""English date formats, day before month as in Britain and most of Europe: Django's own
"en" shows the American order ("11/23/2026 6:03 p.m."), which a Bulgarian club reading the
English pages takes for the 11th of the 23rd month. Shown as 23 Nov 2026, 18:03."""

DATE_FORMAT = "j F Y"
SHORT_DATE_FORMAT = "j M Y"
DATETIME_FORMAT = "j F Y, H:i"
SHORT_DATETIME_FORMAT = "j M Y, H:i"
TIME_FORMAT = "H:i"
MONTH_DAY_FORMAT = "j F"
YEAR_MONTH_FORMAT = "F Y"
FIRST_DAY_OF_WEEK = 1  # Monday
