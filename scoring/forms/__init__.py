"""What people fill in: ``pages`` (every Django form of the site and its form renderer),
``record`` (the phone's record form, turned into a game record and back) and ``rules`` (the
rule-set editor)."""
