"""The server's URLs: the pages, the CLI's API, the organisers' admin and static files."""

from __future__ import annotations

from django.contrib import admin
from django.contrib.staticfiles.views import serve
from django.urls import include, path, re_path
from django.views.decorators.http import require_safe

from tournaments.server.web.icon import favicon

# The organisers' console, named for what it is (not "Django administration").
admin.site.site_header = "Azul Arena: the organisers' console"
admin.site.site_title = "Azul Arena organisers"
admin.site.index_title = "Contests, teams, versions and games"

urlpatterns = [
    path("favicon.ico", favicon, name="favicon"),
    path("admin/", admin.site.urls),
    path("", include("tournaments.server.web.urls")),
    # One process serves everything (`server run`); a department's reverse proxy may serve
    # STATIC_ROOT itself instead (`collectstatic`).
    re_path(r"^static/(?P<path>.*)$", require_safe(serve), {"insecure": True}),
]
