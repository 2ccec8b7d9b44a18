"""The group's own log: what the host did through the panel (create, attach, a match undone, a
seat linked, a merge and its undo, an import), who and when, on the group page its members read;
a phone adds nothing to it. And the group CSV counts seats from 1, as the session's CSV does."""

from __future__ import annotations

import csv
import io
import json
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from companion.groups import transfer
from companion.groups.models import Group, GroupAction, Player
from companion.models import Seat
from tests.groups.support import build_group
from tests.support.factories import make_table
from tests.support.sessions import deal

pytestmark = pytest.mark.django_db


def test_the_hosts_actions_are_logged_and_shown_to_the_members(client) -> None:
    first, _seats = make_table(4)
    deal(first)
    host = f"/h/{first.host_token}/group/"
    client.post(host + "create", {"name": "周五三国杀"})
    group = Group.objects.get()
    second, _seats = make_table(4)
    deal(second)
    Seat.objects.filter(table=second, name="P4").update(name="小四")
    second.session.players = {str(s.pk): s.name for s in second.seats.all()}
    second.session.save()
    host2 = f"/h/{second.host_token}/group/"
    client.post(host2 + "attach", {"link": f"/g/{group.token}/"})
    p1 = Seat.objects.get(table=second, name="P1")
    client.post(host2 + "fix", {"what": "unmatch", "seat": p1.pk})
    p1_first = Player.objects.get(group=group, name="P1", links__evening__session__table=first)
    client.post(host2 + "fix", {"what": "relink", "seat": p1.pk, "player": p1_first.pk})
    p4 = Player.objects.get(group=group, name="P4")
    small4 = Player.objects.get(group=group, name="小四")
    client.post(host2 + "fix", {"what": "merge", "keep": p4.pk, "gone": small4.pk})
    merge = GroupAction.objects.get(kind="merge")
    client.post(host2 + "fix", {"what": "unmerge", "action": merge.pk})
    data = json.dumps(transfer.export_json(group)).encode()
    client.post(host2 + "import", {"file": SimpleUploadedFile("g.json", data)})
    # A phone is refused and logs nothing.
    phone = Seat.objects.get(table=second, name="P2")
    client.post(f"/p/{phone.token}/group/fix", {"what": "unmatch", "seat": phone.pk})
    kinds = list(GroupAction.objects.order_by("at", "pk").values_list("kind", flat=True))
    assert kinds == [
        "create",
        "attach",
        "attach",
        "unmatch",
        "relink",
        "merge",
        "unmerge",
        "import",
    ]
    english = client.get(f"/g/{group.token}/", headers={"Cookie": "sgs_lang=en"}).content.decode()
    log = english[english.index('<section class="card group-log">') :]
    lines = re.findall(r"<li>(.*?)</li>", log)
    text = [re.sub(r"<[^>]+>", "", line) for line in lines]
    assert len(text) == 8
    assert all(
        re.match(r"\d{4}-\d\d-\d\d \d\d:\d\d The host \(table [A-Z0-9]+\): ", t) for t in text
    )
    assert text[-1].endswith("created the group") and first.code in text[-1]
    assert text[4].endswith("P1 is not P1") and second.code in text[4]
    assert text[3].endswith("P1 is P1")
    assert text[2].endswith("merged 小四 into P4")
    assert text[1].endswith("undid merging 小四 into P4")
    assert text[0].endswith("imported 0 games")
    chinese = client.get(f"/g/{group.token}/").content.decode()
    assert "本群记录" in chinese and "把 小四 并入 P4" in chinese


def test_the_group_csv_counts_seats_from_one(client) -> None:
    group, _evenings = build_group()
    text = client.get(f"/g/{group.token}/export.csv").content.decode("utf-8-sig")
    rows = list(csv.DictReader(io.StringIO(text)))
    first_game = [r for r in rows if r["game"] == "1"]
    assert [r["position"] for r in first_game] == ["1", "2", "3", "4"]
    assert min(int(r["position"]) for r in rows) == 1
    # The app's own JSON keeps the stored position (from 0): files exported before import alike.
    assert transfer.export_json(group)["games"][0]["results"][0]["position"] == 0
