"""The WSGI application (for `server run`, or any WSGI server a department puts in front):
Django's, behind the bound on request bodies (bodylimit.py). It refuses to load without a
usable secret key (secret.py), so that no server signs sessions with a missing or public one
(a weak key, a published one, a key file git tracks)."""

from __future__ import annotations

import os

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.core.wsgi import get_wsgi_application

from tournaments.server.bodylimit import BodyLimit
from tournaments.server.secret import configured_key, refusal

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournaments.server.settings")
django_application = get_wsgi_application()
if (problem := refusal(settings.HOME, configured_key())) is not None:
    raise ImproperlyConfigured(problem)
application = BodyLimit(django_application)
