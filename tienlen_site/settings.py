"""Settings for Sổ Tiến Lên, read from the environment.

Development needs no variable at all: SQLite in the project folder, DEBUG on, a throwaway
secret key. Production (DEBUG off) refuses to start without a real SECRET_KEY and is meant to
pass ``manage.py check --deploy`` with no warning. See ``.env.example``.
"""

import os
import sys
from datetime import timedelta
from pathlib import Path
from urllib.parse import unquote, urlparse

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.csp import CSP
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent


TRUE_WORDS = {"1", "true", "yes", "on"}
FALSE_WORDS = {"0", "false", "no", "off"}


def env_bool(name: str, default: bool) -> bool:
    """A yes/no variable. A value that is neither (``flase``) stops the start: read as "no" it
    could quietly turn a safety setting off."""
    value = os.environ.get(name)
    if value is None or value.strip() == "":
        return default
    word = value.strip().lower()
    if word in TRUE_WORDS:
        return True
    if word in FALSE_WORDS:
        return False
    raise ImproperlyConfigured(
        f"{name}={value!r} is neither yes nor no: use one of "
        f"{', '.join(sorted(TRUE_WORDS))} or {', '.join(sorted(FALSE_WORDS))}"
    )


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


def env_int(name: str, default: int) -> int:
    value = os.environ.get(name)
    return int(value) if value else default


# Who opens the database connections: the web ("web": gunicorn, runserver and the tests'
# client) or an operator's command ("command": any other ``manage.py`` command, such as
# migrate, backup, restore, verify_ledger, import_group or the task worker, which may run long
# statements on purpose). Only the web gets the short waits below; TIENLEN_DB_ROLE overrides.
def _db_role(argv: list[str]) -> str:
    if Path(argv[0]).name == "manage.py" and argv[1:2] != ["runserver"]:
        return "command"
    return "web"


DB_ROLE = os.environ.get("TIENLEN_DB_ROLE") or _db_role(sys.argv)

# Bounded waits in the database, for the web's connections (milliseconds; 0 turns one off).
# A request that would wait longer fails with a database error, which the site answers with
# 503 "Sổ đang bận, thử lại" and a short Retry-After (tienlen_site/plumbing/unavailable.py);
# the page's pending-save queue sends a save again by itself, its token counting it once.
#
# lock_timeout: how long a write waits for another write on the same rows (the same sitting,
# the same group). A save holds its sitting for a few milliseconds, so 3 s is far past any
# honest queue of phones saving at once, and short enough that a stuck holder (a worker
# stopped mid-transaction) costs each waiting save 3 s, not the 30 s of gunicorn's timeout.
DB_LOCK_TIMEOUT_MS = env_int("DB_LOCK_TIMEOUT_MS", 3_000)
# statement_timeout: the longest one statement of a page may run. The heaviest reads (a
# what-if over 60 000 games, a group's check) read their rows in well under a second; 10 s
# ends a runaway query long before gunicorn's 30 s worker timeout, so the database does not
# go on working for a worker that is gone.
DB_STATEMENT_TIMEOUT_MS = env_int("DB_STATEMENT_TIMEOUT_MS", 10_000)
# idle_in_transaction_session_timeout: a transaction whose process stops sending anything (a
# hung or stopped worker) is ended by the server after this long, and its row locks with it.
# The web's transactions send their statements back to back; the longest pause inside one is
# a check's second pass in the other language (a few seconds of Python on a big group), so
# 10 s.
DB_IDLE_IN_TRANSACTION_TIMEOUT_MS = env_int("DB_IDLE_IN_TRANSACTION_TIMEOUT_MS", 10_000)
# SQLite has one lock for the whole file, so every write of every table queues on it: a write
# waits this long (seconds) for it before "database is locked", answered like lock_timeout.
SQLITE_BUSY_TIMEOUT = env_int("SQLITE_BUSY_TIMEOUT", 5)


def postgres_session_options() -> str:
    """The ``options`` startup parameter of each PostgreSQL connection: the waits above for
    the web; none for a command.

    A command (migrate, backup, restore, verify_ledger --all, import_group) is run by an
    operator who watches it, and its statements may rightly run for minutes: it waits as long
    as it must. The web's waits still bound what a command can cost the site: a save waiting
    behind a command's lock gets its 503 after ``lock_timeout``.

    ``client_connection_check_interval``: while a statement runs, the server checks every 2 s
    that its client is still there, and stops the statement (and lets its locks and advisory
    locks go) when the worker was killed."""
    if DB_ROLE != "web":
        return ""
    settings = {
        "lock_timeout": DB_LOCK_TIMEOUT_MS,
        "statement_timeout": DB_STATEMENT_TIMEOUT_MS,
        "idle_in_transaction_session_timeout": DB_IDLE_IN_TRANSACTION_TIMEOUT_MS,
        "client_connection_check_interval": 2_000,
    }
    return " ".join(f"-c {name}={value}" for name, value in settings.items())


def database_from_url(url: str) -> dict[str, object]:
    """Turn ``DATABASE_URL`` into a DATABASES entry (sqlite:/// or postgres://), read by
    dj-database-url (so a socket host, ``postgres://u@%2Fvar%2Frun%2Fpostgresql/db``, comes out
    as the path ``/var/run/postgresql``), with this site's SQLite and connection settings."""
    scheme = urlparse(url).scheme
    if scheme == "sqlite":
        # sqlite:/// is the default file, sqlite:///name.sqlite3 is relative to the project,
        # sqlite:////abs/path.sqlite3 is absolute.
        name = str(dj_database_url.parse(url)["NAME"])
        return _sqlite(BASE_DIR / name if name not in ("", ":memory:") else BASE_DIR / "db.sqlite3")
    if scheme in {"postgres", "postgresql", "pgsql"}:
        test_name = os.environ.get("TEST_DATABASE_NAME") or None
        config = dj_database_url.parse(url, test_options={"NAME": test_name})
        # A query key given twice counts once, its last value (as a query string reads).
        options = {
            key: value[-1] if isinstance(value, list) else value
            for key, value in config.get("OPTIONS", {}).items()
        }
        # PgBouncer refuses a startup ``options`` it does not know; behind one, set the same
        # values on the database role instead (docs/reliability.md, "Bounded waits").
        session = postgres_session_options()
        if session and not env_bool("DB_TRANSACTION_POOLER", False):
            options["options"] = f"{options.get('options', '')} {session}".strip()
        return {**config, **_connections(options)}
    raise ImproperlyConfigured(f"DATABASE_URL scheme {scheme!r} is not supported")


def email_from_url(url: str) -> dict[str, object]:
    """Turn ``EMAIL_URL`` into the default entry of ``MAILERS``.

    ``smtp://user:pass@host:587`` (STARTTLS, the usual submission port), ``smtps://…:465``
    (TLS from the start), ``smtp+plain://host:25`` (no encryption, a local relay only),
    ``console://`` (print the mail to the server's output).
    """
    parsed = urlparse(url)
    if parsed.scheme == "console":
        return {"BACKEND": "django.core.mail.backends.console.EmailBackend"}
    if parsed.scheme not in {"smtp", "smtps", "smtp+plain"}:
        raise ImproperlyConfigured(
            f"EMAIL_URL scheme {parsed.scheme!r} is not supported (smtp, smtps, console)"
        )
    default_port = {"smtp": 587, "smtps": 465, "smtp+plain": 25}[parsed.scheme]
    return {
        "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "OPTIONS": {
            "host": parsed.hostname or "",
            "port": parsed.port or default_port,
            "username": unquote(parsed.username or ""),
            "password": unquote(parsed.password or ""),
            "use_tls": parsed.scheme == "smtp",
            "use_ssl": parsed.scheme == "smtps",
            "timeout": 10,
        },
    }


def _connections(options: dict[str, object]) -> dict[str, object]:
    """How each app process holds its PostgreSQL connections (measured in docs/scaling.md).

    By default one persistent connection per worker thread (``CONN_MAX_AGE`` seconds).
    ``DB_POOL=N`` uses psycopg's pool instead, up to N connections per process; Django then
    requires ``CONN_MAX_AGE`` 0, since the pool keeps the connections.
    """
    pool = env_int("DB_POOL", 0)
    if pool:
        options = {**options, "pool": {"min_size": 1, "max_size": pool, "timeout": 10}}
        return {"CONN_MAX_AGE": 0, "OPTIONS": options}
    return {
        "CONN_MAX_AGE": env_int("CONN_MAX_AGE", 60),
        "CONN_HEALTH_CHECKS": True,
        # Behind PgBouncer in transaction mode a cursor cannot outlive its transaction.
        "DISABLE_SERVER_SIDE_CURSORS": env_bool("DB_TRANSACTION_POOLER", False),
        "OPTIONS": options,
    }


def cache_from_url(url: str) -> dict[str, object]:
    """``CACHE_URL``: empty for each process's own memory, ``redis://host:port/db`` to share one
    cache between every app server (live boards rendered once per version for all of them).
    Redis is best-effort (tienlen_site.plumbing.cache_backend): down or slow, pages render
    uncached."""
    if not url:
        return {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    if urlparse(url).scheme in {"redis", "rediss", "unix"}:
        return {
            "BACKEND": "tienlen_site.plumbing.cache_backend.BestEffortRedisCache",
            "LOCATION": url,
            # A Redis that hangs costs a request this long, not a gunicorn worker timeout.
            "OPTIONS": {"socket_connect_timeout": 0.25, "socket_timeout": 0.5},
        }
    raise ImproperlyConfigured(f"CACHE_URL scheme {urlparse(url).scheme!r} is not supported")


def _sqlite(path: Path) -> dict[str, object]:
    return {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": path,
        # Writers queue instead of failing: BEGIN IMMEDIATE takes the write lock up front, so
        # two scorekeepers saving at once wait (up to the timeout) rather than one of them
        # seeing "database is locked" half-way through a transaction. The web waits
        # SQLITE_BUSY_TIMEOUT; a command, which may queue behind a long import, 20 s.
        "OPTIONS": {
            "transaction_mode": "IMMEDIATE",
            "timeout": SQLITE_BUSY_TIMEOUT if DB_ROLE == "web" else 20,
            "init_command": (
                "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON;"
            ),
        },
    }


DEBUG = env_bool("DEBUG", True)

# A proxy in front (deploy/nginx/tienlen.conf) that sets X-Forwarded-Proto and appends the
# client's address to X-Forwarded-For; PROXY_COUNT proxies in a row (a CDN before nginx: 2).
# Without BEHIND_PROXY neither header is believed.
BEHIND_PROXY = env_bool("BEHIND_PROXY", False)
PROXY_COUNT = env_int("PROXY_COUNT", 1) if BEHIND_PROXY else 0
if BEHIND_PROXY and PROXY_COUNT < 1:
    raise ImproperlyConfigured(f"PROXY_COUNT={PROXY_COUNT} with BEHIND_PROXY on: 1 or more")

SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "SECRET_KEY must be set when DEBUG is off (see .env.example): "
            'python -c "import secrets; print(secrets.token_urlsafe(50))"'
        )
    SECRET_KEY = "django-insecure-development-only-key-never-use-in-production-0123456789"

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "127.0.0.1,localhost,[::1]" if DEBUG else "")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.forms",  # the widgets' templates, for FORM_RENDERER below
    "django_htmx",
    "axes",
    "django_tasks_db",
    "scoring",
]

MIDDLEWARE = [
    # First: an address longer than any the site makes is refused (414) before any redirect
    # could copy it into a header (tienlen_site/plumbing/bodylimit.py).
    "tienlen_site.plumbing.bodylimit.RequestLineMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.middleware.gzip.GZipMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "tienlen_site.plumbing.middleware.ChosenLanguageMiddleware",
    # A database error in a view becomes a 503 page in the site's look
    # (tienlen_site/plumbing/unavailable.py).
    "tienlen_site.plumbing.unavailable.DatabaseUnavailableMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Before any view or the CSRF check reads a body: refuses one above MAX_REQUEST_BYTES.
    "tienlen_site.plumbing.bodylimit.RequestSizeMiddleware",
    # Last, as django-axes asks: it turns a lockout into the cool-off page.
    "axes.middleware.AxesMiddleware",
]
if env_bool("LOAD_PROBE", False):
    # The load test's counters (SQL statements, live board renders) as response headers.
    MIDDLEWARE.insert(0, "tienlen_site.plumbing.probe.ProbeMiddleware")

ROOT_URLCONF = "tienlen_site.urls"
WSGI_APPLICATION = "tienlen_site.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.template.context_processors.csp",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

FORM_RENDERER = "scoring.forms.pages.FormRenderer"

DATABASES = {"default": database_from_url(os.environ.get("DATABASE_URL", "sqlite:///"))}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
CACHES = {"default": cache_from_url(os.environ.get("CACHE_URL", ""))}

AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# Mail is used for one thing: the "forgot password" link, for accounts that gave an address.
# Development prints mails to the console; production sends them only with EMAIL_URL set, and
# without it the reset pages are not offered at all (a link that never arrives is worse).
EMAIL_URL = os.environ.get("EMAIL_URL", "")
PASSWORD_RESET_ENABLED = bool(EMAIL_URL) or DEBUG
SILENCED_SYSTEM_CHECKS: list[str] = []
if PASSWORD_RESET_ENABLED:
    MAILERS = {"default": email_from_url(EMAIL_URL or "console://")}
else:
    # Production without EMAIL_URL sends no mail at all, on purpose: no mailer, and the check
    # that says "sending email will fail" (mail.W001) has nothing to warn about.
    MAILERS = {}
    SILENCED_SYSTEM_CHECKS.append("mail.W001")
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Sổ Tiến Lên <no-reply@localhost>")
PASSWORD_RESET_TIMEOUT = 60 * 60 * 24  # a link in the mail works for a day

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# Failed log-ins (tienlen_site/plumbing/loginlimit.py): 5 tries per username and address, 20
# per username from any addresses, 30 per address over any usernames; then a cool-off that
# lifts by itself (a password reset by mail lifts the account's at once).
AXES_FAILURE_LIMIT = env_int("AXES_FAILURE_LIMIT", 5)
AXES_ACCOUNT_FAILURE_LIMIT = env_int("AXES_ACCOUNT_FAILURE_LIMIT", 20)
AXES_ADDRESS_FAILURE_LIMIT = env_int("AXES_ADDRESS_FAILURE_LIMIT", 30)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("AXES_COOLOFF_MINUTES", 15))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"], "username", "ip_address"]
AXES_HANDLER = "tienlen_site.plumbing.loginlimit.LoginLimitHandler"
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "scoring.views.site.locked_out"
# The client's address: REMOTE_ADDR, or behind the proxy the entry it appended to
# X-Forwarded-For (tienlen_site/plumbing/clientip.py). A few lines instead of django-ipware, whose
# proxy-count rules changed between its major versions.
AXES_CLIENT_IP_CALLABLE = "tienlen_site.plumbing.clientip.client_ip"
AXES_VERBOSE = False

LANGUAGE_CODE = "vi"
LANGUAGES = [("vi", _("Tiếng Việt")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
# One date style per language (tienlen_site/formats/): 02/12/2026 and 02/12; 2 Dec 2026, 2 Dec.
FORMAT_MODULE_PATH = ["tienlen_site.formats"]
TIME_ZONE = "Asia/Ho_Chi_Minh"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT") or BASE_DIR / "staticfiles")
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

# /healthz watches the operator's routines (docs/operations.md, "What the checks tell an
# operator"): "stale" when the last backup or the last whole check of the books is older than
# this many hours (0: not watched; default: watched only with DEBUG off). What it reads is kept
# HEALTH_CACHE_SECONDS in each process, so a monitor polling every second costs one small query
# per process every few seconds.
HEALTH_BACKUP_MAX_HOURS = env_int("HEALTH_BACKUP_MAX_HOURS", 0 if DEBUG else 26)
HEALTH_BOOKS_MAX_HOURS = env_int("HEALTH_BOOKS_MAX_HOURS", 0 if DEBUG else 26)
HEALTH_CACHE_SECONDS = env_int("HEALTH_CACHE_SECONDS", 10)

# The largest request body the site accepts: a 5 MiB session file (the import's limit) with
# the form around it. A body above it is refused with 413 before anything reads it
# (tienlen_site.plumbing.bodylimit); the proxy in front must use the same limit
# (docs/deployment.md).
MAX_REQUEST_BYTES = env_int("MAX_REQUEST_BYTES", 6 * 1024 * 1024)
# The largest session file an import reads (scoring.ledger.sessionfile); the 413 page names it too.
MAX_SESSION_FILE_BYTES = 5 * 1024 * 1024
# Background work (a group's archive imported, or built for download): Django's own Tasks
# framework, queued in this database by django-tasks-db and run by its worker, ``manage.py
# db_worker`` (``make run`` and ``make serve`` start one; docs/archive.md). TASKS_BACKEND=immediate
# runs each task inside the request that asks for it (the tests do), for a site without a worker.
TASK_BACKENDS = {
    "database": "django_tasks_db.DatabaseBackend",
    "immediate": "django.tasks.backends.immediate.ImmediateBackend",
}
_task_backend = os.environ.get("TASKS_BACKEND", "database")
if _task_backend not in TASK_BACKENDS:
    raise ImproperlyConfigured(
        f"TASKS_BACKEND={_task_backend!r}: use one of {', '.join(sorted(TASK_BACKENDS))}"
    )
TASKS = {"default": {"BACKEND": TASK_BACKENDS[_task_backend]}}
# At most this many archive tasks queued or running across the site; one more is refused with
# a "try again in a few minutes" (each person has at most one: a database constraint).
ARCHIVE_TASKS_MAX = env_int("ARCHIVE_TASKS_MAX", 4)
# An archive task whose worker has said nothing for this long (queued and never taken, or taken
# by a worker that died) is reported failed when anyone reads it, never left "running". Longer
# than the longest step a task takes without a word (the import's one transaction).
ARCHIVE_TASK_STALE_SECONDS = env_int("ARCHIVE_TASK_STALE_SECONDS", 30 * 60)
# A group's archive download is built in the request up to this many games; a larger group's is
# built by the worker. Either way the file is kept and served again until the book changes.
ARCHIVE_INLINE_GAMES = env_int("ARCHIVE_INLINE_GAMES", 4000)
# How many heavy pages (a what-if the cache does not hold, "Kiểm tra sổ") are computed at once
# across the site (tienlen_site/plumbing/oneatatime.py): fewer than the app servers' workers,
# so others always answer. With every slot taken one request waits up to HEAVY_WAIT_SECONDS
# for one (a what-if is computed in about a second); the rest get 429 at once.
HEAVY_SLOTS = env_int("HEAVY_SLOTS", 2)
HEAVY_WAIT_SECONDS = float(os.environ.get("HEAVY_WAIT_SECONDS") or 2)
# Where the heavy pages' file locks live without PostgreSQL (empty: a folder per database in
# /dev/shm or the temporary folder).
HEAVY_LOCK_DIR = os.environ.get("HEAVY_LOCK_DIR", "")
# The longest address the site accepts, as it arrives (percent-encoded): every page's path
# and query are far shorter. Longer ones get 414
# (tienlen_site.plumbing.bodylimit.RequestLineMiddleware), so no redirect copies them into a header;
# nginx refuses longer request lines itself.
MAX_PATH_CHARS = 512
MAX_QUERY_CHARS = 1024
# An accepted upload stays in memory and is never written to a temporary file on disk.
FILE_UPLOAD_MAX_MEMORY_SIZE = MAX_REQUEST_BYTES
# Form fields other than files: Django's own 2.5 MB default, below the limit above.
DATA_UPLOAD_MAX_MEMORY_SIZE = 2_621_440

# Security. Every header is on in development too, so what is tested is what ships.
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF, CSP.NONCE],
    "style-src": [CSP.SELF, CSP.NONCE],
    "img-src": [CSP.SELF, "data:"],
    "connect-src": [CSP.SELF],
    "font-src": [CSP.SELF],
    "object-src": [CSP.NONE],
    "base-uri": [CSP.NONE],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
}
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_AGE = 60 * 60 * 24 * 60  # a table meets every few weeks; stay logged in
if not DEBUG:
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    if BEHIND_PROXY:
        SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 60 * 60 * 24 * 365)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    # Preloading is a promise browsers keep for months even if the site later stops serving
    # HTTPS on some subdomain, so it is the operator's explicit choice, never a default.
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", False)
    if not SECURE_HSTS_PRELOAD:
        # check --deploy nags about preload (W021); here leaving it off is the decision above.
        SILENCED_SYSTEM_CHECKS.append("security.W021")
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}
LANGUAGE_COOKIE_AGE = 60 * 60 * 24 * 365
LANGUAGE_COOKIE_SAMESITE = "Lax"
LANGUAGE_COOKIE_SECURE = not DEBUG
