"""gunicorn for production (`make serve`): settings from the environment, like the app's own."""

import gc
import multiprocessing
import os

bind = os.environ.get("BIND", f"{os.environ.get('HOST', '127.0.0.1')}:{os.environ.get('PORT', '8000')}")
# Two processes a core, each with a few threads so a keep-alive client does not hold a whole worker.
workers = int(os.environ.get("WEB_CONCURRENCY", multiprocessing.cpu_count() * 2))
worker_class = "gthread"
threads = int(os.environ.get("WEB_THREADS", "4"))
# Load the app once before forking: workers share its memory and a broken configuration stops the start.
preload_app = True
# A worker silent this long is restarted. With threads that is a stuck process, not a slow request: what bounds a
# request is the database's statement timeout, set for the served app here (commands such as a migration or a reindex
# run without it).
timeout = int(os.environ.get("WEB_TIMEOUT", "30"))
if not os.environ.get("WIKI_STATEMENT_TIMEOUT"):
    os.environ["WIKI_STATEMENT_TIMEOUT"] = str(timeout)
graceful_timeout = 20
keepalive = 5
max_requests = int(os.environ.get("WEB_MAX_REQUESTS", "0"))
max_requests_jitter = max_requests // 10
# "-" is standard output; empty turns the access log off.
accesslog = os.environ.get("WEB_ACCESS_LOG", "-") or None
errorlog = "-"
loglevel = os.environ.get("LOG_LEVEL", "info").lower()
# No control socket: its default path is one per user, which a second server on the host would take over.
control_socket_disable = True
# Time, client, request line, status, bytes, milliseconds, request id: what an operator reads first. The client is the
# address X-Forwarded-For names behind WIKI_TRUSTED_PROXIES proxies, as the app counts it; with WIKI_LOG_FORMAT=json
# each line is a JSON object instead (config/access_log.py).
access_log_format = '%(t)s %(h)s "%(r)s" %(s)s %(B)s %(M)sms %({x-request-id}o)s'
logger_class = "config.access_log.GunicornLogger"


def pre_fork(server: object, worker: object) -> None:
    """The loaded app's objects live as long as the process: frozen, no worker's collector scans them again (shorter
    pauses, so a steadier p99) and the workers keep sharing their memory pages instead of copying them."""
    gc.freeze()
