#!/usr/bin/env python
import os
import sys


def main() -> None:
    if sys.argv[1:2] == ["score"]:
        # Scoring needs no database: run it without setting every app up (see engine/cli.py).
        from scoring.engine.cli import main as score

        code = score(sys.argv[2:])
        if code is not None:
            sys.exit(code)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tienlen_site.settings")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
