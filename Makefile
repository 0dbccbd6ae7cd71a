# Sổ Tiến Lên — the targets a newcomer can guess. Only Python (>= 3.12) and make are needed.
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
PYTHON ?= $(shell for v in $$(cat .python-version 2>/dev/null) 3.13 3.12; do \
	for c in python$$v python3; do \
	  if command -v $$c >/dev/null 2>&1 && $$c -c 'import sys; sys.exit(sys.version_info < (3, 12))' 2>/dev/null; then echo $$c; exit 0; fi; \
	done; done)
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test install upgrade backup messages demo serve lint format check verify-books bench load load-scale capacity clean

# The exact versions CI passed with, each with its hashes (requirements.lock, written by
# pip-tools from pyproject.toml's ranges): the same packages on every machine, and a new
# version only through `make upgrade`, a deliberate commit with its own CI run. Re-run
# whenever the lock or pyproject.toml changes; `pip check` stops an install whose lock lacks
# a dependency pyproject.toml has gained.
LOCK := requirements.lock
LOCKER := $(VENV)/locker
$(STAMP): $(LOCK) pyproject.toml
	@if [ -z "$(PYTHON)" ]; then echo "Sổ Tiến Lên needs Python 3.12 or newer (python3.12 or python3.13 on PATH); none was found." >&2; exit 1; fi
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet --require-hashes -r $(LOCK)
	$(PY) -m pip install --quiet --no-deps -e .
	@$(PY) -m pip check >/dev/null || { $(PY) -m pip check >&2; \
	  echo "$(LOCK) does not hold everything pyproject.toml asks for: run make upgrade" >&2; exit 1; }
	@touch $(STAMP)

# The translations too: without them `--lang en` and the English pages print Vietnamese.
install: $(STAMP) messages

# Newer versions within pyproject.toml's ranges, locked with their hashes, then installed:
# commit the new lock on its own so CI runs on exactly it. ONLY=django upgrades one package.
# pip-tools runs from a virtualenv of its own, so it never lands in the project's.
ONLY ?=
upgrade:
	@if [ -z "$(PYTHON)" ]; then echo "Sổ Tiến Lên needs Python 3.12 or newer (python3.12 or python3.13 on PATH); none was found." >&2; exit 1; fi
	@test -x $(LOCKER)/bin/pip-compile || { $(PYTHON) -m venv $(LOCKER) && $(LOCKER)/bin/pip install --quiet pip-tools; }
	CUSTOM_COMPILE_COMMAND='make upgrade' $(LOCKER)/bin/pip-compile --quiet \
	  $(if $(ONLY),--upgrade-package $(ONLY),--upgrade) --generate-hashes --extra dev \
	  --strip-extras --allow-unsafe --no-emit-index-url --no-emit-find-links \
	  --output-file $(LOCK) pyproject.toml
	$(MAKE) install

# Compiled with Babel (pure Python), so a machine without GNU gettext can still build them;
# only a catalogue newer than its compiled file is compiled again, so a test run never
# rewrites a file another run on the same checkout may be reading.
CATALOGUES := $(wildcard locale/*/LC_MESSAGES/django.po)
messages: $(CATALOGUES:.po=.mo)

locale/%/LC_MESSAGES/django.mo: locale/%/LC_MESSAGES/django.po | $(STAMP)
	$(VENV)/bin/pybabel compile --statistics --locale $* --input-file $< --output-file $@

# The site and, in the background, the worker that runs its background tasks (a group's
# archive imported or built: docs/archive.md); stopping the site (Ctrl+C) stops the worker too.
# The worker does not reload on a code change: restart make run for that.
WORKER := $(PY) manage.py db_worker --no-reload
run: install messages
	$(PY) manage.py migrate --no-input --verbosity 0
	$(PY) manage.py load_demo
	@$(WORKER) & worker=$$!; \
	  trap 'kill $$worker 2>/dev/null; wait $$worker 2>/dev/null' EXIT INT TERM; \
	  $(PY) manage.py runserver $(HOST):$(PORT)

# The suite on every core (pytest-xdist), less the browser and multi-server tests, which
# `make test SUITE=all` adds (CI runs them so, on PostgreSQL). `make test WORKERS=0` runs in one
# process; PYTEST_ARGS passes anything else to pytest (e.g. PYTEST_ARGS='tests/groups').
WORKERS ?= auto
SUITE ?= quick
ifeq ($(SUITE),all)
SUITE_ARGS :=
else
SUITE_ARGS := -m "not browser and not slow"
endif
test: install messages
	$(PY) -m pytest -n $(WORKERS) --dist worksteal $(SUITE_ARGS) $(PYTEST_ARGS)

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy

format: install
	$(VENV)/bin/ruff format .
	$(VENV)/bin/ruff check --fix .

check: install
	$(PY) manage.py makemigrations --check --dry-run
	DEBUG=0 SECRET_KEY=check-deploy-$$(date +%s)-a-long-random-enough-secret-value-0123456789 \
	  ALLOWED_HOSTS=example.com $(PY) manage.py check --deploy --fail-level WARNING

# Every sitting's and group's book against its history (docs/ledger-check.md); for a timer
# (deploy/systemd/tienlen-books.timer), with the production environment: exit 1, each
# disagreeing book on stderr, when any disagrees. It writes: each book's verdict (a check row per
# book, shown on its pages while it disagrees) and the time of the check, for /healthz.
verify-books: install
	$(PY) manage.py verify_ledger --all

# A consistent copy of the whole database while the site serves, with every book's fingerprint
# and its checksum, as BACKUP_DIR/tienlen-<UTC date-time>.tar.gz; kept: the newest BACKUP_KEEP,
# and the newest of each of the last BACKUP_DAILY days, BACKUP_WEEKLY weeks, BACKUP_MONTHLY
# months; older ones deleted (docs/operations.md). Each may come from the environment.
BACKUP_DIR ?= backups
BACKUP_KEEP ?= 7
BACKUP_DAILY ?= 7
BACKUP_WEEKLY ?= 5
BACKUP_MONTHLY ?= 12
backup: install
	@mkdir -p $(BACKUP_DIR)
	$(PY) manage.py backup --into $(BACKUP_DIR) --keep $(BACKUP_KEEP) \
	  --daily $(BACKUP_DAILY) --weekly $(BACKUP_WEEKLY) --monthly $(BACKUP_MONTHLY)

# Production: gunicorn behind a TLS proxy, and the background worker beside it, stopped with it.
# Set SECRET_KEY, ALLOWED_HOSTS, DATABASE_URL first.
serve: install messages
	DEBUG=0 $(PY) manage.py collectstatic --no-input --verbosity 0
	DEBUG=0 $(PY) manage.py migrate --no-input
	@DEBUG=0 $(WORKER) & worker=$$!; \
	  trap 'kill $$worker 2>/dev/null; wait $$worker 2>/dev/null' EXIT INT TERM; \
	  DEBUG=0 $(VENV)/bin/gunicorn --config deploy/gunicorn.conf.py --bind $(HOST):$(PORT)

bench: install messages
	$(PY) bench/run.py

load: install messages
	$(PY) bench/load.py $(LOAD_ARGS)
	$(PY) bench/load.py --importers 2 --import-pause 10 --max-poll-ms 1000 $(LOAD_ARGS)

# Two instances behind nginx with a shared Redis, 200 phones, 4 scorekeepers and 200 more
# phones opening the live page within one second (needs Debian's nginx and redis-server).
load-scale: install messages
	$(PY) bench/load.py --instances 2 --proxy nginx --cache redis --burst 200 $(LOAD_ARGS)

# CPU, SQL and bytes per kind of request: the figures behind docs/scaling.md.
capacity: install messages
	$(PY) bench/capacity.py

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .ruff_cache .mypy_cache
