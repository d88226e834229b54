"""The WSGI application (for `server run`, or any WSGI server a department puts in front)."""

from __future__ import annotations

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournaments.server.settings")
application = get_wsgi_application()
