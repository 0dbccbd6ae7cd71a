"""Several app servers behind nginx, with a shared Redis cache, all on loopback: the way the
site grows, started for ``bench/load.py --instances N --proxy nginx --cache redis`` and for the
scale-out tests.

Each gunicorn is a separate process group on its own port, as separate machines would be;
they share nothing but PostgreSQL (or a SQLite file) and, optionally, Redis. nginx runs with
the repository's ``deploy/nginx/tienlen.conf`` included as it is, from a prefix, pid and logs
of its own in a temporary folder (no system service is touched, no privileged port).
Redis runs with persistence off in a temporary folder. Everything stops at the end.
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path

from tests.reliability.realserver import HOST, ROOT, Server, free_port, manage, request

NGINX_CONF = ROOT / "deploy" / "nginx" / "tienlen.conf"
NGINX_HTTP_CONF = ROOT / "deploy" / "nginx" / "tienlen-http.conf"


def upstream_parameters() -> str:
    """The parameters the proxy file tells an operator to put on each ``server`` line of the
    upstream (``max_fails=0``): the tests write their upstream with exactly those."""
    found = re.search(r"^#\s+server 10\.0\.0\.11:8000 ?([^;]*);", NGINX_CONF.read_text(), re.M)
    if found is None:
        raise RuntimeError(f"{NGINX_CONF.name} no longer shows its upstream's server lines")
    return found.group(1).strip()


def main_context() -> tuple[str, str]:
    """The connections nginx's main configuration must hold, as the http file tells the
    operator (``worker_rlimit_nofile``, ``worker_connections``): the tests' nginx uses them."""
    text = NGINX_HTTP_CONF.read_text()
    rlimit = re.search(r"^#\s+worker_rlimit_nofile (\d+);", text, re.M)
    connections = re.search(r"^#\s+events \{ worker_connections (\d+); \}", text, re.M)
    if rlimit is None or connections is None:
        raise RuntimeError(f"{NGINX_HTTP_CONF.name} no longer shows nginx's connections")
    return rlimit.group(1), connections.group(1)


SECRET = "scale-out-test-secret-key-that-is-long-and-random-enough-0123456789abcdef"


def find_binary(name: str) -> str | None:
    """Debian puts nginx and redis-server in sbin/bin directories a user's PATH may lack."""
    return shutil.which(name) or next(
        (str(p) for d in ("/usr/sbin", "/usr/bin") if (p := Path(d) / name).exists()), None
    )


def production_env(
    *, static_root: Path, cache_url: str = "", connections: str = "persistent"
) -> dict[str, str]:
    """What an app server behind the proxy runs with: production settings, on plain HTTP."""
    env = {
        "DEBUG": "0",
        "SECRET_KEY": SECRET,
        "ALLOWED_HOSTS": HOST,
        # TLS ends at the proxy in production; on loopback there is none, so no redirect.
        "SECURE_SSL_REDIRECT": "0",
        "BEHIND_PROXY": "1",
        "PROXY_COUNT": "1",
        "STATIC_ROOT": str(static_root),
        "CACHE_URL": cache_url,
        "LOAD_PROBE": "1",
    }
    if connections == "pool":
        env.update(DB_POOL="4", CONN_MAX_AGE="0")
    elif connections == "persistent":
        env.update(CONN_MAX_AGE="600", DB_POOL="0")
    else:  # a new connection per request
        env.update(CONN_MAX_AGE="0", DB_POOL="0")
    return env


def collect_static(database_url: str, static_root: Path) -> None:
    manage(
        database_url,
        "collectstatic",
        "--no-input",
        "--verbosity",
        "0",
        env=production_env(static_root=static_root),
    )
    static_root.chmod(0o755)  # nginx's workers read it


class Redis:
    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://{HOST}:{self.port}/0"

    def start(self, timeout: float = 10) -> Redis:
        binary = find_binary("redis-server")
        if binary is None:
            raise RuntimeError("redis-server is not installed (Debian package redis-server)")
        # Its own config file, not arguments: with no file, redis-server reads no defaults
        # from /etc, and every setting is here.
        conf = self.directory / "redis.conf"
        conf.write_text(
            f'bind {HOST}\nport {self.port}\ndir {self.directory}\nsave ""\n'
            "appendonly no\ndaemonize no\nprotected-mode yes\nmaxmemory 256mb\n"
            "maxmemory-policy allkeys-lru\nlogfile redis.log\n"
        )
        self.proc = subprocess.Popen(
            [binary, str(conf)], cwd=self.directory, start_new_session=True
        )
        _wait_for_port(self.port, timeout, self.proc, "redis-server")
        return self

    def stop(self) -> None:
        _stop(self.proc)
        self.proc = None


class Nginx:
    def __init__(
        self, directory: Path, upstreams: list[int], static_root: Path, *, limits: bool = True
    ) -> None:
        self.directory = directory
        self.upstreams = upstreams
        self.static_root = static_root
        self.limits = limits
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.port}"

    def config(self) -> str:
        d = self.directory
        params = upstream_parameters()
        servers = "\n".join(f"        server {HOST}:{port} {params};" for port in self.upstreams)
        user = "user root;\n" if os.geteuid() == 0 else ""
        rlimit, connections = main_context()
        http_conf = NGINX_HTTP_CONF
        if not self.limits:
            # The load bench's hundreds of phones all come from one loopback address: with
            # the per-address limits' keys left empty, nginx counts none of them.
            http_conf = d / "tienlen-http-unlimited.conf"
            http_conf.write_text(NGINX_HTTP_CONF.read_text().replace("$binary_remote_addr", '""'))
        return f"""# Generated by tests/reliability/stack.py around deploy/nginx/tienlen*.conf.
daemon off;
{user}worker_processes 1;
worker_rlimit_nofile {rlimit};
pid {d}/nginx.pid;
error_log {d}/error.log warn;
events {{ worker_connections {connections}; }}
http {{
    include /etc/nginx/mime.types;
    include {http_conf};
    default_type application/octet-stream;
    access_log off;
    sendfile on;
    client_body_temp_path {d}/client_body;
    proxy_temp_path {d}/proxy;
    fastcgi_temp_path {d}/fastcgi;
    uwsgi_temp_path {d}/uwsgi;
    scgi_temp_path {d}/scgi;
    upstream tienlen_app {{
        least_conn;
{servers}
    }}
    server {{
        listen {HOST}:{self.port};
        server_name {HOST};
        set $tienlen_static {self.static_root};
        include {NGINX_CONF};
    }}
}}
"""

    def start(self, timeout: float = 10) -> Nginx:
        binary = find_binary("nginx")
        if binary is None:
            raise RuntimeError("nginx is not installed (Debian package nginx)")
        conf = self.directory / "nginx.conf"
        conf.write_text(self.config())
        command = [binary, "-p", str(self.directory), "-e", str(self.directory / "error.log")]
        check = subprocess.run(
            [*command, "-t", "-c", str(conf)], capture_output=True, text=True, timeout=30
        )
        if check.returncode != 0:
            raise RuntimeError(f"nginx refused its configuration:\n{check.stderr}")
        self.proc = subprocess.Popen(
            [*command, "-c", str(conf)],
            cwd=self.directory,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        _wait_for_port(self.port, timeout, self.proc, "nginx")
        return self

    def stop(self) -> None:
        _stop(self.proc)
        self.proc = None

    def error_log(self) -> str:
        try:
            return (self.directory / "error.log").read_text(errors="replace")[-4000:]
        except OSError:
            return ""


class Stack:
    """``instances`` gunicorns (``workers`` × ``threads`` each) on one database, optionally
    behind nginx and sharing a Redis cache. ``url`` is where clients go: the proxy if there
    is one, else the first instance."""

    def __init__(
        self,
        database_url: str,
        *,
        instances: int = 2,
        proxy: bool = True,
        redis: bool = True,
        workers: int = 2,
        threads: int = 1,
        connections: str = "persistent",
        env: Mapping[str, str] | None = None,
        timeout: int = 60,
        limits: bool = True,
    ) -> None:
        self.database_url = database_url
        self.instances = instances
        self.proxy = proxy
        self.use_redis = redis
        self.workers = workers
        self.threads = threads
        self.connections = connections
        self.timeout = timeout  # each gunicorn's worker timeout
        self.limits = limits  # nginx's per-address limits (off: every client is one address)
        self.extra_env = dict(env or {})
        self.directory = Path(tempfile.mkdtemp(prefix="tienlen-stack-"))
        self.directory.chmod(0o755)
        self.static_root = self.directory / "static"
        self.redis: Redis | None = None
        self.nginx: Nginx | None = None
        self.servers: list[Server] = []

    @property
    def url(self) -> str:
        return self.nginx.url if self.nginx else self.servers[0].url

    def start(self) -> Stack:
        try:
            if self.use_redis:
                (self.directory / "redis").mkdir()
                self.redis = Redis(self.directory / "redis").start()
            collect_static(self.database_url, self.static_root)
            env = production_env(
                static_root=self.static_root,
                cache_url=self.redis.url if self.redis else "",
                connections=self.connections,
            )
            env.update(self.extra_env)
            for n in range(self.instances):
                log_dir = self.directory / f"app{n + 1}"
                log_dir.mkdir()
                server = Server(
                    self.database_url,
                    workers=self.workers,
                    threads=self.threads,
                    env=env,
                    log_dir=log_dir,
                    timeout=self.timeout,
                    preload=True,
                )
                self.servers.append(server.start())
            for server in self.servers:
                _warm_up(server)
            if self.proxy:
                (self.directory / "nginx").mkdir(mode=0o755)
                self.nginx = Nginx(
                    self.directory / "nginx",
                    [s.port for s in self.servers],
                    self.static_root,
                    limits=self.limits,
                ).start()
        except BaseException:
            self.stop()
            raise
        return self

    def stop(self) -> None:
        if self.nginx:
            self.nginx.stop()
        for server in self.servers:
            server.stop()
        if self.redis:
            self.redis.stop()
        shutil.rmtree(self.directory, ignore_errors=True)

    def __enter__(self) -> Stack:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def describe(self) -> str:
        parts = [
            f"{self.instances} gunicorn instance(s) × {self.workers} workers × "
            f"{self.threads} threads ({self.connections} DB connections)"
        ]
        parts.append(f"behind nginx on {self.nginx.url}" if self.nginx else "no proxy")
        parts.append("Redis cache" if self.redis else "each process's own memory cache")
        return ", ".join(parts)


def _warm_up(server: Server) -> None:
    """A few requests to each instance, so a measurement starts with warm workers (the app is
    preloaded before the workers fork, so each answers at once)."""
    for _ in range(4 * server.workers):
        request(server.url, "GET", "/healthz", timeout=10)


def _wait_for_port(port: int, timeout: float, proc: subprocess.Popen[bytes], name: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"{name} exited at start (status {proc.returncode})")
        try:
            with socket.create_connection((HOST, port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.05)
    _stop(proc)
    raise RuntimeError(f"{name} did not listen on {HOST}:{port} in {timeout} s")


def _stop(proc: subprocess.Popen[bytes] | None) -> None:
    if proc is None or proc.poll() is not None:
        return
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(5)


__all__ = ["Nginx", "Redis", "Stack", "find_binary", "request"]
