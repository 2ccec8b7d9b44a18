from django.urls import include, path, re_path

from companion.web.views import acts, box, dialogs, errors, handover, session, table
from companion.web.views import help as help_views

TOKEN = r"(?P<token>[A-Za-z0-9_-]{1,64})"  # noqa: S105 - a URL pattern
CODE = r"(?P<code>[A-Z0-9]{1,8})"

urlpatterns = [
    path("", table.home, name="home"),
    path("new/", table.table_new, name="table-new"),
    path("join/", table.join_lookup, name="join-lookup"),
    path("lang/", table.set_language, name="set-language"),
    # The rules help, the identity tips every phone loads, the guided first game.
    path("help/", help_views.help_index, name="help"),
    path("help/roles.json", help_views.role_tips, name="help-roles"),
    path("help/<str:kind>/<str:name>/", help_views.help_entry, name="help-entry"),
    path("first-game/", help_views.first_game, name="first-game"),
    re_path(rf"^j/{CODE}/$", table.join, name="join"),
    re_path(rf"^t/{CODE}/$", table.display, name="display"),
    re_path(rf"^p/{TOKEN}/$", table.phone, name="phone"),
    re_path(rf"^h/{TOKEN}/$", table.host, name="host"),
    re_path(rf"^[ph]/{TOKEN}/act/(?P<name>[a-z]{{1,16}})$", acts.act, name="act"),
    re_path(
        rf"^[ph]/{TOKEN}/status/(?P<action_id>[A-Za-z0-9_-]{{8,64}})$",
        acts.tap_status_view,
        name="tap-status",
    ),
    re_path(rf"^[ph]/{TOKEN}/seat/(?P<seat_id>[0-9]{{1,12}})$", dialogs.seat_dialog, name="seat"),
    re_path(
        rf"^[ph]/{TOKEN}/equip/(?P<seat_id>[0-9]{{1,12}})$", dialogs.equip_dialog, name="equip"
    ),
    re_path(
        rf"^[ph]/{TOKEN}/judge/(?P<seat_id>[0-9]{{1,12}})$", dialogs.judge_dialog, name="judge"
    ),
    re_path(rf"^[ph]/{TOKEN}/replace$", dialogs.replace_dialog, name="replace"),
    # A game package's dialog of one seat (companion.hooks: `Game.dialogs`).
    re_path(
        rf"^[ph]/{TOKEN}/(?P<name>[a-z]{{1,16}})/(?P<seat_id>[0-9]{{1,12}})$",
        dialogs.game_dialog,
        name="game-dialog",
    ),
    re_path(
        rf"^t/{CODE}/seat/(?P<seat_id>[0-9]{{1,12}})$",
        dialogs.display_seat_dialog,
        name="display-seat",
    ),
    # Sessions: history, a game's breakdown and timeline, corrections, exports.
    re_path(rf"^[ph]/{TOKEN}/session/$", session.session_history, name="session"),
    re_path(rf"^[ph]/{TOKEN}/session/new$", session.session_new, name="session-new"),
    re_path(
        rf"^[ph]/{TOKEN}/session/(?P<number>[0-9]{{1,6}})/$",
        session.session_history,
        name="session-n",
    ),
    re_path(
        rf"^[ph]/{TOKEN}/session/(?P<number>[0-9]{{1,6}})/export\.(?P<fmt>csv|json)$",
        session.session_export,
        name="session-export",
    ),
    re_path(rf"^[ph]/{TOKEN}/game/(?P<number>[0-9]{{1,6}})/$", session.game_detail, name="game"),
    re_path(
        rf"^[ph]/{TOKEN}/game/(?P<number>[0-9]{{1,6}})/correct$",
        session.game_correct,
        name="game-correct",
    ),
    re_path(rf"^t/{CODE}/session/$", session.display_session_history, name="display-session"),
    re_path(
        rf"^t/{CODE}/session/(?P<number>[0-9]{{1,6}})/$",
        session.display_session_history,
        name="display-session-n",
    ),
    re_path(
        rf"^t/{CODE}/game/(?P<number>[0-9]{{1,6}})/$",
        session.display_game_detail,
        name="display-game",
    ),
    # The table's hero box (the host's page; export and import as a JSON file).
    re_path(rf"^[ph]/{TOKEN}/box/$", box.box_page, name="box"),
    re_path(rf"^[ph]/{TOKEN}/box/add$", box.box_add, name="box-add"),
    re_path(rf"^[ph]/{TOKEN}/box/switch$", box.box_switch, name="box-switch"),
    re_path(rf"^[ph]/{TOKEN}/box/remove$", box.box_remove, name="box-remove"),
    re_path(rf"^[ph]/{TOKEN}/box/import$", box.box_import, name="box-import"),
    re_path(rf"^[ph]/{TOKEN}/box/export\.json$", box.box_export, name="box-export"),
    # The one-time link a seat moves to a new phone with.
    re_path(rf"^n/{TOKEN}/$", handover.claim, name="handover-claim"),
    # Only for reverse(): the websocket routes live in companion/web/routing.py.
    re_path(rf"^ws/{TOKEN}/$", errors.page_not_found, name="ws-token"),
    re_path(rf"^ws/t/{CODE}/$", errors.page_not_found, name="ws-display"),
]

handler404 = "companion.web.views.errors.page_not_found"
handler500 = "companion.web.views.errors.server_error"

# What browsers ask for by themselves (companion/web/views/misc.py).
from companion.web.views.misc import robots_txt  # noqa: E402

urlpatterns += [path("robots.txt", robots_txt, name="robots")]
# The group's all-time table: an app above the core, reached only from here.
urlpatterns += [path("", include("companion.groups.urls"))]
