"""gunicorn's settings for Sổ Tiến Lên (``gunicorn -c deploy/gunicorn.conf.py tienlen_site.wsgi``).

``make serve`` and the tests' real servers (tests/reliability/realserver.py) start gunicorn with
this file, so what is tested is what ships; a command-line flag still overrides a value here.

The aim is that a dead worker costs only its own request:

* sync workers: one request per process, so a worker killed mid-request (by the kernel, an
  operator, or the timeout below) takes that request with it and nothing else; the master
  forks a new one at once, and the others go on accepting from the shared socket;
* ``timeout`` ends a request stuck for 30 s (shorter than nginx's ``proxy_read_timeout``, 60 s,
  so gunicorn ends it, not the proxy); the site's heavy reads are bounded well below it;
* ``preload_app``: the code is loaded once in the master, so a replacement worker answers its
  first request without importing Django again;
* ``max_requests`` with jitter recycles each worker after a few thousand requests, one at a
  time, after its current request: memory stays flat over months without a restart;
* ``graceful_timeout``: on a deploy (SIGHUP / SIGTERM) a worker finishes its request first.

The proxy's side of the same promise (``max_fails=0``, GETs retried once on another instance,
POSTs never) is in deploy/nginx/tienlen.conf.
"""

import os

wsgi_app = "tienlen_site.wsgi"
worker_class = "sync"
workers = int(os.environ.get("WEB_CONCURRENCY", "3"))
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "30"))
graceful_timeout = 30
# nginx talks HTTP/1.0 to the app and closes after each answer; a keep-alive would only hold a
# sync worker for nothing.
keepalive = 0
preload_app = os.environ.get("GUNICORN_PRELOAD", "1") != "0"
max_requests = 2000
max_requests_jitter = 200
# The workers' heartbeat files in memory: on a slow disk gunicorn could mistake a worker that
# is busy for one that is stuck.
worker_tmp_dir = "/dev/shm" if os.path.isdir("/dev/shm") else None
accesslog = "-"
# gunicorn's control socket (``gunicornc``) is off: its default path is one per user
# (~/.gunicorn/gunicorn.ctl), so two instances on one host would share it, and the second to
# start takes it from the first; a command meant for one instance would reach the other.
# Nothing here uses it (deploys restart through systemd). To have one, give each instance
# its own path: GUNICORN_CONTROL_SOCKET=/run/tienlen/app1.ctl.
if os.environ.get("GUNICORN_CONTROL_SOCKET"):
    control_socket = os.environ["GUNICORN_CONTROL_SOCKET"]
else:
    control_socket_disable = True
