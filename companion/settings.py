"""Settings: an embedded default (SQLite, in-memory channel layer, one process) with no
environment at all; environment variables switch to PostgreSQL and Redis for several processes.

Variables (all optional):
  DEBUG=1                  development mode
  SECRET_KEY=...           otherwise one is made once and kept in var/secret_key
  ALLOWED_HOSTS=a,b        otherwise localhost plus this machine's own addresses
  DB=postgres              with DB_NAME, DB_USER, DB_PASSWORD, DB_HOST, DB_PORT
  DB_THREADS=4             PostgreSQL: threads running websocket taps, each table's on one
  REDIS_URL=redis://...    channels_redis layer and a shared cache (throttles, connection caps)
  REDIS_SHARDS=url,url     the channel layer on these Redis servers instead, groups sharded
                           across them (needs REDIS_URL, which keeps the cache)
  REDIS_PREFIX=sgs         start of the Redis channel names and cache keys (see channel_prefix)
  TRUSTED_PROXIES=a,b      proxies (addresses or networks) whose X-Forwarded-For is believed
  HTTPS=1                  behind a TLS proxy: secure cookies, HSTS, SSL redirect
  DATA_DIR=path            where the SQLite file and secret key live (default var/)
  HANDOVER_DELAY=60        seconds the table has to object to a seat move the host asked for
"""

from __future__ import annotations

import hashlib
import os
import secrets
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from companion.infra.netinfo import local_addresses

BASE_DIR = Path(__file__).resolve().parent.parent


def envbool(name: str, default: bool = False) -> bool:
    """Read a boolean variable; anything but the usual spellings is an error."""
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    if value.lower() in {"1", "true", "yes", "on"}:
        return True
    if value.lower() in {"0", "false", "no", "off"}:
        return False
    raise ValueError(f"{name} must be a boolean, not {value!r}")


def envlist(name: str) -> list[str]:
    """Read a comma-separated list."""
    return [item.strip() for item in os.environ.get(name, "").split(",") if item.strip()]


DATA_DIR = Path(os.environ.get("DATA_DIR", BASE_DIR / "var"))
DATA_DIR.mkdir(parents=True, exist_ok=True)

DEBUG = envbool("DEBUG")
HTTPS = envbool("HTTPS")


def _secret_key() -> str:
    if os.environ.get("SECRET_KEY"):
        return os.environ["SECRET_KEY"]
    path = DATA_DIR / "secret_key"
    if not path.exists():
        path.write_text(secrets.token_urlsafe(50))
        path.chmod(0o600)
    return path.read_text().strip()


SECRET_KEY = _secret_key()

ALLOWED_HOSTS = envlist("ALLOWED_HOSTS") or [
    "localhost",
    "127.0.0.1",
    "[::1]",
    "testserver",
    *local_addresses(),
]

# The game packages (companion/games/<key>/, each a Django app reached only through
# companion.hooks, or as a mode through companion.rules.modes): registering a game is one line
# here.
GAMES = [
    "companion.games.identity",
    # Before the other games: its history lines come before their clauses on its damage.
    "companion.games.maneuvering",
    "companion.games.protection",
    "companion.games.last_three",
    "companion.games.house",
    "companion.games.afterlife",
    # The ways to play beyond the identity game register their mode (companion.rules.modes),
    # in the order the create form offers them; the draft kit they share registers no game.
    "companion.games.draft",
    "companion.games.threes",
    "companion.games.duel",
]

INSTALLED_APPS = [
    "django.contrib.staticfiles",
    "template_partials",
    "channels",
    "companion",
    *GAMES,
    # The group's all-time table: above the core, which never imports it.
    "companion.groups",
]

MIDDLEWARE = [
    # Pages are compressed (a phone's first load stays small on café Wi-Fi); taps answer 204.
    "django.middleware.gzip.GZipMiddleware",
    "companion.web.middleware.SecurityHeadersMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "companion.web.middleware.NullOriginMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "companion.web.middleware.RequestSizeMiddleware",
    "companion.web.middleware.RedisOutageMiddleware",
]

ROOT_URLCONF = "companion.urls"
ASGI_APPLICATION = "companion.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.template.context_processors.csrf",
            ],
        },
    }
]

if os.environ.get("DB", "sqlite") == "postgres":
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.postgresql",
            "NAME": os.environ.get("DB_NAME", "sgs"),
            "USER": os.environ.get("DB_USER", "postgres"),
            "PASSWORD": os.environ.get("DB_PASSWORD", ""),
            "HOST": os.environ.get("DB_HOST", "127.0.0.1"),
            "PORT": os.environ.get("DB_PORT", "5432"),
            # Under ASGI every request runs in its own thread: persistent connections would pile
            # up until PostgreSQL refuses clients (Django's ASGI notes say to keep this at 0).
            # Django's psycopg pool bounds them instead: a process holds at most DB_POOL_SIZE
            # connections, and a request beyond that waits up to DB_POOL_TIMEOUT seconds for one
            # (with 800 phones opening at once, unbounded threads ran PostgreSQL out of its 100
            # clients: the soak in bench/soak.py).
            "CONN_MAX_AGE": 0,
            "OPTIONS": (
                {
                    "pool": {
                        "min_size": 2,
                        "max_size": int(os.environ.get("DB_POOL_SIZE", "16")),
                        "timeout": float(os.environ.get("DB_POOL_TIMEOUT", "20")),
                    }
                }
                if os.environ.get("DB_POOL_SIZE", "16") != "0"
                else {}
            ),
            "TEST": {"NAME": os.environ.get("DB_TEST_NAME", "test_sgs")},
        }
    }
    # The threads that run websocket taps, each table's on one of them
    # (companion/infra/dbthread.py), each holding one connection of the pool: a table's taps wait
    # behind other tables' round trips only on a shared thread (docs/performance.md, "Round trips
    # and threads").
    DB_THREADS = int(os.environ.get("DB_THREADS", "4"))
elif os.environ.get("DB", "sqlite") == "sqlite":
    # WAL and immediate transactions: with the defaults, concurrent taps fail with
    # "database is locked" (PERF_NOTES.md). SQLite's own checkpoint interval (1,000 log pages)
    # stays: every 10,000 pages gained little at 50 tables and doubled the p99 at 100, where each
    # larger checkpoint held up more taps (docs/performance.md).
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": os.environ.get("SQLITE_PATH", DATA_DIR / "db.sqlite3"),
            "OPTIONS": {
                "transaction_mode": "IMMEDIATE",
                "timeout": 20,
                "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            },
            "TEST": {"NAME": os.environ.get("SQLITE_TEST_PATH", DATA_DIR / "test.sqlite3")},
        }
    }
    DB_THREADS = 1  # one writer: SQLite's write lock is never contended inside the process
else:
    raise ValueError("DB must be sqlite or postgres")


def channel_prefix(base: str, database: object, redis_url: str, secret_key: str) -> str:
    """The start of every Redis pub/sub channel name of this deployment.

    Redis pub/sub ignores the database number of the URL: without this, two deployments on one
    Redis (`/1` and `/2`) would receive each other's frames, private ones included. The prefix
    hashes what the processes of one deployment share and two deployments do not: the database
    name, the Redis database number and the secret key (hashed first: the prefix is visible to
    anyone who can list Redis channels).
    """
    parsed = urlsplit(redis_url)
    in_path = "" if parsed.scheme == "unix" else parsed.path.strip("/")  # redis://host:port/N
    number = parse_qs(parsed.query).get("db", [in_path or "0"])[0]
    key_hash = hashlib.sha256(secret_key.encode()).hexdigest()
    digest = hashlib.sha256(f"{database}\n{number}\n{key_hash}".encode()).hexdigest()[:16]
    return f"{base}-{digest}-"


# STOCK_PATH=1 runs the hot path as Django and Channels ship it, to measure the hand-made parts
# against it (docs/performance.md, "Stock against hand-made"): the ORM instead of
# companion/infra/fastsql.py ("orm"), Channels' in-memory layer, consumer loop and dispatch
# instead of companion/live/layers.py and the consumer's overrides ("layer"),
# `database_sync_to_async` instead of companion/infra/dbthread.py ("dbthread"). STOCK_PATH=orm,layer
# names some of them. The tests run both ways and find them alike.
STOCK_PARTS_ALL = frozenset({"orm", "layer", "dbthread"})
_stock = {p.strip() for p in os.environ.get("STOCK_PATH", "").split(",") if p.strip()}
STOCK_PARTS = STOCK_PARTS_ALL if _stock & {"1", "all"} else frozenset(_stock & STOCK_PARTS_ALL)
STOCK_PATH = bool(STOCK_PARTS)


def redis_shards(value: str, redis_url: str) -> list[str]:
    """The channel layer's Redis servers: REDIS_SHARDS (comma-separated URLs), else REDIS_URL.

    channels_redis puts each group and channel on one of them by a hash of its name and the
    server's place in the list, so every process must see the same list in the same order: it is
    sorted here, so processes given the same URLs in another order still agree.
    """
    shards = sorted({url.strip() for url in value.split(",") if url.strip()})
    if not shards:
        return [redis_url] if redis_url else []
    if not redis_url:
        raise ValueError("REDIS_SHARDS needs REDIS_URL too (the cache stays there)")
    return shards


REDIS_URL = os.environ.get("REDIS_URL", "")
REDIS_SHARDS = redis_shards(os.environ.get("REDIS_SHARDS", ""), REDIS_URL)
if REDIS_URL:
    REDIS_PREFIX = os.environ.get("REDIS_PREFIX", "sgs")
    CHANNEL_LAYERS = {
        "default": {
            # channels_redis's pub/sub layer, delivering straight to this process's sockets
            # (companion/live/layers.py); STOCK_PATH's "layer": channels_redis's own.
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer"
            if "layer" in STOCK_PARTS
            else "companion.live.layers.LeanRedisPubSubChannelLayer",
            "CONFIG": {
                "hosts": REDIS_SHARDS,
                "prefix": channel_prefix(
                    REDIS_PREFIX, DATABASES["default"]["NAME"], REDIS_URL, SECRET_KEY
                ),
            },
        }
    }
    CACHES = {
        "default": {
            # While Redis cannot be reached, each process counts in its own memory: pages keep
            # loading and the throttles keep working (companion/infra/cache.py).
            "BACKEND": "companion.infra.cache.FailSafeRedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": REDIS_PREFIX,
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        }
    }
else:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels.layers.InMemoryChannelLayer"
            if "layer" in STOCK_PARTS
            else "companion.live.layers.LeanInMemoryChannelLayer"
        }
    }
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

LANGUAGE_CODE = "zh-hans"
LANGUAGES = [("zh-hans", "简体中文"), ("en", "English")]
LOCALE_PATHS = [BASE_DIR / "companion" / "locale"]
LANGUAGE_COOKIE_NAME = "sgs_lang"
LANGUAGE_COOKIE_SAMESITE = "Lax"
USE_I18N = True
USE_TZ = True
TIME_ZONE = os.environ.get("TIME_ZONE", "Asia/Shanghai")

STATIC_URL = "/static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
# Django's finders, but js/live.js and css/app.css are served joined from their parts
# (companion/infra/staticstorage.py).
STATICFILES_FINDERS = [
    "companion.infra.staticstorage.JoiningFinder",
    "django.contrib.staticfiles.finders.AppDirectoriesFinder",
]
# STATIC_ROOT: where `play` collects the static files (the test servers each collect their own,
# as two servers collecting into one folder at once trip over each other).
STATIC_ROOT = (
    Path(os.environ["STATIC_ROOT"]) if os.environ.get("STATIC_ROOT") else BASE_DIR / "staticfiles"
)
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG or envbool("STATIC_PLAIN")
            else "companion.infra.staticstorage.MinifiedManifestStorage"
        )
    },
}
WHITENOISE_MAX_AGE = 3600

# Requests and websocket frames from phones are tiny; anything large is an attack or a bug.
DATA_UPLOAD_MAX_MEMORY_SIZE = 16 * 1024
DATA_UPLOAD_MAX_NUMBER_FIELDS = 50
WS_MAX_MESSAGE_BYTES = 4096
WS_MAX_CONNECTIONS_PER_SEAT = 4
WS_MAX_MESSAGES_PER_10S = 40
# Screens without a token (the public display, /ws/t/<code>/): per table, and per client (its
# device cookie, else its address: companion.web.throttle), in each process.
WS_MAX_DISPLAYS_PER_TABLE = 12
WS_MAX_DISPLAYS_PER_CLIENT = 6
# With the Redis channel layer, how often each process checks that it still reaches Redis.
WS_LAYER_PROBE_SECONDS = 0.5
# HTTP requests inside Django at once, per process (companion.asgi.BoundedHTTP; 0: no bound).
HTTP_CONCURRENCY = int(os.environ.get("HTTP_CONCURRENCY", "12"))
# A probe that times out within this long of an answered one means busy, not down.
WS_LAYER_SLOW_SECONDS = 3.0
# Per-message compression of websocket frames. Most frames are small deltas and phones sit on
# the same Wi-Fi, so by default the CPU is spent on more tables instead (WS_DEFLATE=1 turns it on).
WS_DEFLATE = envbool("WS_DEFLATE")
BAD_TOKEN_LIMIT_PER_MINUTE = 30
# An identical tap from the same screen within this many ms is the same tap (companion/web/taps.py).
TAP_REPEAT_WINDOW_MS = 400
# A tap not judged within this many ms of its arrival (waiting in line, or for the database's
# write lock) is answered "not applied, try again" (companion/web/dispatch.py). Below the phone's
# 4 s before it posts the same tap over HTTP, so the socket's answer comes first.
TAP_DEADLINE_MS = int(os.environ.get("TAP_DEADLINE_MS", "3500"))
# How long every screen announces a seat move the host asked for (while the seat holds
# a secret) before it can happen without the seat's own phone agreeing (docs/handover.md).
HANDOVER_DELAY_SECONDS = int(os.environ.get("HANDOVER_DELAY", "60"))

CSRF_FAILURE_VIEW = "companion.web.views.errors.csrf_failure"
CSRF_COOKIE_NAME = "sgs_csrf"
CSRF_COOKIE_HTTPONLY = False  # htmx reads it into the X-CSRFToken header
CSRF_COOKIE_SAMESITE = "Lax"
SESSION_COOKIE_HTTPONLY = True
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"

# Failed lookups (wrong tokens or table codes) a minute: BAD_TOKEN_LIMIT_PER_MINUTE per device,
# this per client address (companion/web/throttle.py). The address limit is much higher: behind one
# Wi-Fi's NAT or a proxy every phone shares an address.
BAD_LOOKUP_LIMIT_PER_ADDRESS_PER_MINUTE = 300
# Proxies (addresses or networks) in front of the app whose X-Forwarded-For header is believed;
# none by default, so a client cannot choose its own address by sending one.
TRUSTED_PROXIES = envlist("TRUSTED_PROXIES")

if HTTPS:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = True
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    LANGUAGE_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = 31536000
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    CSRF_TRUSTED_ORIGINS = [f"https://{host}" for host in ALLOWED_HOSTS if host != "testserver"]

# Seat tokens must never reach a log line (docs/threats.md 5): every handler goes through a filter
# that masks them, and the access log of the ASGI server is off.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"redact": {"()": "companion.infra.logs.RedactSecrets"}},
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "handlers": {
        "console": {"class": "logging.StreamHandler", "filters": ["redact"], "formatter": "plain"}
    },
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
    "loggers": {
        "django": {"handlers": ["console"], "level": "WARNING", "propagate": False},
        "uvicorn": {"handlers": ["console"], "level": "INFO", "propagate": False},
        "uvicorn.access": {"handlers": [], "level": "CRITICAL", "propagate": False},
    },
}
