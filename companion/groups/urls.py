"""The groups app's addresses, included by companion/urls.py."""

from __future__ import annotations

from django.urls import re_path

from companion.groups import views

TOKEN = r"(?P<token>[A-Za-z0-9_-]{1,64})"  # noqa: S105 - a URL pattern
CODE = r"(?P<code>[A-Z0-9]{1,8})"

urlpatterns = [
    re_path(rf"^g/{TOKEN}/$", views.group_page, name="group"),
    re_path(rf"^g/{TOKEN}/qr\.svg$", views.group_qr, name="group-qr"),
    re_path(
        rf"^g/{TOKEN}/export\.(?P<fmt>csv|json|bgsplay)$", views.group_export, name="group-export"
    ),
    re_path(rf"^[ph]/{TOKEN}/group/$", views.panel, name="group-panel"),
    re_path(rf"^[ph]/{TOKEN}/group/create$", views.create, name="group-create"),
    re_path(rf"^[ph]/{TOKEN}/group/attach$", views.attach, name="group-attach"),
    re_path(rf"^[ph]/{TOKEN}/group/fix$", views.fix, name="group-fix"),
    re_path(rf"^[ph]/{TOKEN}/group/confirm$", views.confirm, name="group-confirm"),
    re_path(rf"^[ph]/{TOKEN}/group/import$", views.import_file, name="group-import"),
    re_path(rf"^t/{CODE}/group/$", views.display_card, name="group-card"),
]
