#!/usr/bin/env python
import os
import sys


def _end(code: int) -> None:
    """Exit with ``code`` once everything written is out, skipping the interpreter's teardown:
    freeing thousands of parsed records and results one object at a time took about a twentieth
    of a ``score`` run, and nothing is left to do but flush (no files open for writing, no atexit
    work). If flushing fails (say, a closed pipe), the ordinary exit reports it as before."""
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except BaseException:
        sys.exit(code)
    os._exit(code)


def main() -> None:
    if sys.argv[1:2] == ["score"]:
        # Scoring needs no database: run it without setting every app up (see engine/cli.py).
        # Importing the engine makes thousands of objects and no garbage: the cyclic collector
        # would only walk them again (cli.main keeps it off while scoring too).
        import gc

        gc.disable()
        from scoring.engine.cli import main as score

        code = score(sys.argv[2:])
        if code is not None:
            _end(code)
        gc.enable()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tienlen_site.settings")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
