from __future__ import annotations

from django.urls import path

urlpatterns: list = []
