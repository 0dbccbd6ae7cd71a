"""Vietnamese dates: day first, two digits, slashes (02/12/2026, and 02/12 without the year)."""

DATE_FORMAT = "d/m/Y"
SHORT_DATE_FORMAT = "d/m/Y"
MONTH_DAY_FORMAT = "d/m"
DATETIME_FORMAT = "H:i d/m/Y"
SHORT_DATETIME_FORMAT = "H:i d/m/Y"
TIME_FORMAT = "H:i"
