"""Bulgarian date formats: Django's own bg locale has no short forms, and its fallbacks show
American month/day order with "преди обяд". Clubs write 22.11.2026 19:30."""

DATE_FORMAT = "j E Y"
SHORT_DATE_FORMAT = "d.m.Y"
DATETIME_FORMAT = "j E Y, H:i"
SHORT_DATETIME_FORMAT = "d.m.Y H:i"
TIME_FORMAT = "H:i"
