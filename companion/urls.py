from django.urls import path, re_path

from companion import views, views_handover, views_session

TOKEN = r"(?P<token>[A-Za-z0-9_-]{1,64})"  # noqa: S105 - a URL pattern
CODE = r"(?P<code>[A-Z0-9]{1,8})"

urlpatterns = [
    path("", views.home, name="home"),
    path("new/", views.table_new, name="table-new"),
    path("join/", views.join_lookup, name="join-lookup"),
    path("lang/", views.set_language, name="set-language"),
    re_path(rf"^j/{CODE}/$", views.join, name="join"),
    re_path(rf"^t/{CODE}/$", views.display, name="display"),
    re_path(rf"^p/{TOKEN}/$", views.phone, name="phone"),
    re_path(rf"^h/{TOKEN}/$", views.host, name="host"),
    re_path(rf"^[ph]/{TOKEN}/act/(?P<name>[a-z]{{1,16}})$", views.act, name="act"),
    re_path(
        rf"^[ph]/{TOKEN}/status/(?P<action_id>[A-Za-z0-9_-]{{8,64}})$",
        views.tap_status_view,
        name="tap-status",
    ),
    re_path(rf"^[ph]/{TOKEN}/seat/(?P<seat_id>[0-9]{{1,12}})$", views.seat_dialog, name="seat"),
    re_path(rf"^[ph]/{TOKEN}/equip/(?P<seat_id>[0-9]{{1,12}})$", views.equip_dialog, name="equip"),
    re_path(rf"^[ph]/{TOKEN}/judge/(?P<seat_id>[0-9]{{1,12}})$", views.judge_dialog, name="judge"),
    re_path(rf"^[ph]/{TOKEN}/replace$", views.replace_dialog, name="replace"),
    re_path(
        rf"^t/{CODE}/seat/(?P<seat_id>[0-9]{{1,12}})$",
        views.display_seat_dialog,
        name="display-seat",
    ),
    # Sessions (issue 5): history, a game's breakdown and timeline, corrections, exports.
    re_path(rf"^[ph]/{TOKEN}/session/$", views_session.session_history, name="session"),
    re_path(rf"^[ph]/{TOKEN}/session/new$", views_session.session_new, name="session-new"),
    re_path(
        rf"^[ph]/{TOKEN}/session/(?P<number>[0-9]{{1,6}})/$",
        views_session.session_history,
        name="session-n",
    ),
    re_path(
        rf"^[ph]/{TOKEN}/session/(?P<number>[0-9]{{1,6}})/export\.(?P<fmt>csv|json)$",
        views_session.session_export,
        name="session-export",
    ),
    re_path(
        rf"^[ph]/{TOKEN}/game/(?P<number>[0-9]{{1,6}})/$", views_session.game_detail, name="game"
    ),
    re_path(
        rf"^[ph]/{TOKEN}/game/(?P<number>[0-9]{{1,6}})/correct$",
        views_session.game_correct,
        name="game-correct",
    ),
    re_path(rf"^t/{CODE}/session/$", views_session.display_session_history, name="display-session"),
    re_path(
        rf"^t/{CODE}/session/(?P<number>[0-9]{{1,6}})/$",
        views_session.display_session_history,
        name="display-session-n",
    ),
    re_path(
        rf"^t/{CODE}/game/(?P<number>[0-9]{{1,6}})/$",
        views_session.display_game_detail,
        name="display-game",
    ),
    # Issue 10: the one-time link a seat moves to a new phone with.
    re_path(rf"^n/{TOKEN}/$", views_handover.claim, name="handover-claim"),
    # Only for reverse(): the websocket routes live in companion/web/routing.py.
    re_path(rf"^ws/{TOKEN}/$", views.page_not_found, name="ws-token"),
    re_path(rf"^ws/t/{CODE}/$", views.page_not_found, name="ws-display"),
]

handler404 = "companion.views.page_not_found"
handler500 = "companion.views.server_error"

# Issue 10: what browsers ask for by themselves (companion/views_misc.py).
from companion.views_misc import robots_txt  # noqa: E402

urlpatterns += [path("robots.txt", robots_txt, name="robots")]
