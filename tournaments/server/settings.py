"""Django settings of the contest server.

Everything the server writes lives in one data folder (`AZUL_ARENA_SERVER_HOME`, default
./arena-server): the SQLite database, the secret key (made by `server init`, never by importing
these settings), the uploaded archives, the unpacked versions and the bots' logs.
`DATABASE_URL` (postgresql://...) moves the database to PostgreSQL.
"""

from __future__ import annotations

import os
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

from tournaments.server import HOME_VARIABLE
from tournaments.server.dburl import from_url, sqlite
from tournaments.server.secret import read_key

HOME = Path(os.environ.get(HOME_VARIABLE) or "arena-server").resolve()
# Said back to this process's environment, resolved: the sandbox covers the server's home
# wherever it lies (referee.sandbox reads the variable), the default ./arena-server included.
os.environ[HOME_VARIABLE] = str(HOME)
PACKAGE = Path(__file__).resolve().parent


def whole_number(variable: str, default: int) -> int:
    """$`variable` as a whole number >= 0, else `default` when unset; a typo in a deployment's
    settings file is refused with the variable's name, not a bare int() error."""
    text = os.environ.get(variable, "").strip()
    if not text:
        return default
    try:
        if (value := int(text)) >= 0:
            return value
    except ValueError:
        pass
    raise ImproperlyConfigured(
        f"{variable}={text!r} is not a whole number of 0 or more: set one, or unset it "
        f"for the default ({default})"
    )


# Read only, never made here (tournaments/server/secret.py): "" until `server init` makes the
# key; whatever serves or signs refuses to start without one (wsgi.py, `server run`).
SECRET_KEY = read_key(HOME)
DEBUG = os.environ.get("AZUL_ARENA_DEBUG", "") == "1"
ALLOWED_HOSTS = [
    h.strip()
    for h in os.environ.get(
        "AZUL_ARENA_ALLOWED_HOSTS", "localhost,127.0.0.1,[::1],testserver"
    ).split(",")
    if h.strip()
]
# The contest the site's front page shows and its sign-up joins (its slug; `server run
# --contest SLUG` sets it): empty, the one contest open, else the default one (Contest.front).
FRONT_CONTEST = os.environ.get("AZUL_ARENA_CONTEST", "").strip()
CSRF_TRUSTED_ORIGINS = [
    o.strip() for o in os.environ.get("AZUL_ARENA_TRUSTED_ORIGINS", "").split(",") if o.strip()
]

# Behind a reverse proxy that terminates TLS (docs/deployment.md): the proxy says the request
# came over HTTPS in X-Forwarded-Proto (it must set that header itself, overwriting any the
# client sent), and the session and CSRF cookies go over HTTPS only.
if os.environ.get("AZUL_ARENA_TLS_PROXY", "") == "1":
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = whole_number("AZUL_ARENA_HSTS_SECONDS", 0)
    # Login throttling by the client's address as the proxy names it, not the proxy's own.
    AXES_CLIENT_IP_CALLABLE = "tournaments.server.accounts.addresses.client_address"

# Mail (import-class --send): Django's SMTP backend with these, or
# AZUL_ARENA_EMAIL_BACKEND=file (each message a file in AZUL_ARENA_EMAIL_FILE_PATH) or console.
_EMAIL_BACKENDS = {
    "smtp": "django.core.mail.backends.smtp.EmailBackend",
    "file": "django.core.mail.backends.filebased.EmailBackend",
    "console": "django.core.mail.backends.console.EmailBackend",
    "locmem": "django.core.mail.backends.locmem.EmailBackend",
}
_backend = os.environ.get("AZUL_ARENA_EMAIL_BACKEND", "smtp")
EMAIL_BACKEND = _EMAIL_BACKENDS.get(_backend, _backend)
EMAIL_FILE_PATH = os.environ.get("AZUL_ARENA_EMAIL_FILE_PATH", str(HOME / "mail"))
EMAIL_HOST = os.environ.get("AZUL_ARENA_EMAIL_HOST", "localhost")
EMAIL_PORT = whole_number("AZUL_ARENA_EMAIL_PORT", 25)
EMAIL_HOST_USER = os.environ.get("AZUL_ARENA_EMAIL_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("AZUL_ARENA_EMAIL_PASSWORD", "")
EMAIL_USE_TLS = os.environ.get("AZUL_ARENA_EMAIL_TLS", "") == "1"
DEFAULT_FROM_EMAIL = os.environ.get("AZUL_ARENA_EMAIL_FROM", "azul-arena@localhost")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django_htmx",
    "axes",
    # The apps bottom to top: each uses only those above it in this list (pyproject.toml).
    "tournaments.server.accounts",
    "tournaments.server.contests",
    "tournaments.server.submissions",
    "tournaments.server.ladder",
    "tournaments.server.handins",
    "tournaments.server.finals",
    "tournaments.server.analyses",
    "tournaments.server.versiontests",
    "tournaments.server.tables",
    "tournaments.server.worker",
    "tournaments.server.web",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "axes.middleware.AxesMiddleware",  # last: it answers a locked-out login
]

# Login throttling (django-axes): after AXES_FAILURE_LIMIT failed logins for one user name from
# one address, that pair is locked out for AXES_COOLOFF_TIME hours; a success resets the count.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = whole_number("AZUL_ARENA_LOGIN_FAILURES", 5)
AXES_COOLOFF_TIME = 0.25
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_HTTP_RESPONSE_CODE = 429
AXES_VERBOSE = False

ROOT_URLCONF = "tournaments.server.urls"
WSGI_APPLICATION = "tournaments.server.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ]
        },
    }
]

DATABASES = {
    "default": from_url(os.environ["DATABASE_URL"])
    if os.environ.get("DATABASE_URL")
    else sqlite(HOME / "server.sqlite3")
}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Game analyses (analyses.queue): how many a user may ask for a day; simulations per decision.
ANALYSIS_DAILY_QUOTA = whole_number("AZUL_ARENA_ANALYSIS_QUOTA", 5)
ANALYSIS_BUDGET = whole_number("AZUL_ARENA_ANALYSIS_BUDGET", 2000)
# How much lower than the ladder worker (LADDER_NICE) the analyses' processes run (at most
# niceness 19 in all): below the bots, whose clocks run.
ANALYSIS_NICE = min(19, whole_number("AZUL_ARENA_ANALYSIS_NICE", 10))

# Argon2 first: new and changed passwords are hashed with it (argon2-cffi); the others only
# read hashes made elsewhere (an imported account) and upgrade them at the next login.
PASSWORD_HASHERS = [
    "django.contrib.auth.hashers.Argon2PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2PasswordHasher",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]

# Sessions end after a working day, and when the browser closes.
SESSION_COOKIE_AGE = whole_number("AZUL_ARENA_SESSION_SECONDS", 12 * 3600)
SESSION_EXPIRE_AT_BROWSER_CLOSE = True
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_SAMESITE = "Lax"
X_FRAME_OPTIONS = "SAMEORIGIN"  # the game page embeds the viewer from the same origin
# An imported account's sign-up link stays valid this long (or until the password is set).
PASSWORD_RESET_TIMEOUT = 14 * 24 * 3600
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "leaderboard"

# An upload is an archive of a bot's folder. Request bodies are bounded as they arrive
# (tournaments/server/bodylimit.py answers 413): the URLs named in ARCHIVE_UPLOAD_URLS take an
# archive of up to ARCHIVE_MAX_BYTES (and FORM_MAX_BYTES for the form's other fields), every
# other URL FORM_MAX_BYTES; an uploaded file above FILE_UPLOAD_MAX_MEMORY_SIZE is spooled to a
# temporary file, which those limits bound.
ARCHIVE_MAX_BYTES = whole_number("AZUL_ARENA_ARCHIVE_MAX_BYTES", 20 * 2**20)
FORM_MAX_BYTES = whole_number("AZUL_ARENA_FORM_MAX_BYTES", 64 * 2**10)
ARCHIVE_UPLOAD_URLS = ("api_submit", "participant")
DATA_UPLOAD_MAX_MEMORY_SIZE = FORM_MAX_BYTES
FILE_UPLOAD_MAX_MEMORY_SIZE = 2_621_440
UNPACKED_MAX_BYTES = whole_number("AZUL_ARENA_UNPACKED_MAX_BYTES", 100 * 2**20)
UNPACKED_MAX_FILES = whole_number("AZUL_ARENA_UNPACKED_MAX_FILES", 2000)
# Validation: versions validated at once by a ladder worker (one per participant at a time),
# and the seconds its test games may take after the build (the contest caps the build): past
# both, a validation fails saying so.
VALIDATIONS = max(1, whole_number("AZUL_ARENA_VALIDATIONS", 2))
VALIDATION_PLAY_SECONDS = max(1, whole_number("AZUL_ARENA_VALIDATION_PLAY_SECONDS", 300))
# The final starts this long after a contest's last deadline at the earliest: an upload
# received just before it is still being unpacked and stored (its version not yet made).
UPLOAD_GRACE_SECONDS = whole_number("AZUL_ARENA_UPLOAD_GRACE_SECONDS", 60)
# The front page's standings table is made at most once in this many seconds while the ladder
# changes, and kept while it does not (tournaments/server/web/board.py); 0: made at every request.
BOARD_SECONDS = whole_number("AZUL_ARENA_BOARD_SECONDS", 5)
# The ladder worker's CPU niceness (0-19), and with it its games' (the referee and the bots),
# validations and builds; its analyses are ANALYSIS_NICE lower still: the web site beside it
# on one machine comes first (docs/deployment.md).
LADDER_NICE = min(19, whole_number("AZUL_ARENA_LADDER_NICE", 10))
# Browser games against a bot at once on this server, everyone's together: each is a referee
# and a bot process on a thread of a web process, and lasts up to half an hour when its person
# walks away (three 10-minute moves played for them), so accounts alone must not multiply them.
TABLES = max(1, whole_number("AZUL_ARENA_TABLES", 8))
# Ranked games one version may play at once (its own bot processes in each): a slow bot busy
# in one game is still there for the others to meet (tournaments/server/ladder/matchmaking.py).
GAMES_PER_VERSION = max(1, whole_number("AZUL_ARENA_GAMES_PER_VERSION", 2))
# Slow clients (tournaments/server/slowguard.py): the longest wait for one read or write of a
# connection, the seconds a request's line and headers may take, the body's least average rate
# (bytes a second) after its grace seconds, and one address's connections per web process.
WEB_RECV_SECONDS = max(1, whole_number("AZUL_ARENA_WEB_RECV_SECONDS", 10))
WEB_HEADER_SECONDS = max(1, whole_number("AZUL_ARENA_WEB_HEADER_SECONDS", 10))
WEB_BODY_GRACE_SECONDS = whole_number("AZUL_ARENA_WEB_BODY_GRACE_SECONDS", 10)
WEB_BODY_MIN_RATE = whole_number("AZUL_ARENA_WEB_BODY_MIN_RATE", 8 * 2**10)
# Behind the TLS proxy every connection comes from the proxy's address: the proxy bounds its
# clients, and a cap of 8 would throttle the whole site.
WEB_CONNECTIONS_PER_ADDRESS = max(
    1,
    whole_number(
        "AZUL_ARENA_WEB_CONNECTIONS_PER_ADDRESS",
        1000 if os.environ.get("AZUL_ARENA_TLS_PROXY", "") == "1" else 8,
    ),
)

STATIC_URL = "static/"
STATIC_ROOT = HOME / "static"

LANGUAGE_CODE = "en"
TIME_ZONE = "UTC"
USE_I18N = False
USE_TZ = True

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "loggers": {"tournaments.server": {"handlers": ["console"], "level": "INFO"}},
}
