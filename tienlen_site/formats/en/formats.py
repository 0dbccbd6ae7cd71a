"""English dates: day, short month name, year (2 Dec 2026, and 2 Dec without the year), never
month first, so an English reader at a Vietnamese table cannot read 02/12 as 12 February."""

DATE_FORMAT = "j M Y"
SHORT_DATE_FORMAT = "j M Y"
MONTH_DAY_FORMAT = "j M"
DATETIME_FORMAT = "j M Y, H:i"
SHORT_DATETIME_FORMAT = "j M Y, H:i"
TIME_FORMAT = "H:i"
