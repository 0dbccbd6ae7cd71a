"""How much of a list one page shows: every page size, in one place."""

GAMES_PER_PAGE = 10  # a sitting's games, newest first
HISTORY_PER_PAGE = 50  # a sitting's history and a group's
SITTINGS_SHOWN = 10  # a group's latest sittings, and each step of "more"
GAMES_SHOWN = 12  # the games of one sitting in a player's statement
# How many of the latest sittings (and, apart, of the latest payments) an explanation of what
# one player owes another shows before its "older lines" row; more on request.
WHY_SHOWN = 20
MOST_SHOWN = 1000  # the most of a list (sittings, statement lines) one request may ask for
