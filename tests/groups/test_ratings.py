"""The ratings stored as games come into the group are the ratings a replay of the whole
history gives, after a game corrected in the middle, an import of earlier games and a merge;
the page shows them without replaying a game."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from companion.actions.scoring import score_results
from companion.groups import merges, read, services, transfer
from companion.groups.models import Group, GroupResult
from companion.groups.rules import rating
from companion.groups.rules.plays import Play
from companion.models import Game
from companion.rules import modes
from tests.groups.support import build_group

pytestmark = pytest.mark.django_db


def _replayed(plays: list[Play]) -> list[dict[int, tuple[float, float]]]:
    return list(rating.replay(plays, {}))


def assert_stored_is_full_replay(group: Group) -> list[Play]:
    plays, _games, _names = read.load(group)
    for play, after in zip(plays, _replayed(plays), strict=True):
        assert {r.player: (r.mu, r.sigma) for r in play.results if r.mu is not None} == after
    full = rating.rate(plays)
    assert rating.stored(plays) == full
    # openskill's own ordinal, for the shown value.
    assert all(r.value == rating.MODEL.rating(mu=r.mu, sigma=r.sigma).ordinal() for r in full.table)
    return plays


def _stored(group: Group) -> dict[int, tuple[float | None, float | None]]:
    rows = GroupResult.objects.filter(game__group=group)
    return {pk: (mu, sigma) for pk, mu, sigma in rows.values_list("pk", "mu", "sigma")}


def test_a_correction_in_the_middle_rates_every_later_game_again() -> None:
    group, evenings = build_group()
    assert_stored_is_full_replay(group)
    before = _stored(group)
    # Evening 6 (3 vs 3) is corrected: the cool side won, not the warm one.
    game = Game.objects.get(session=evenings[5].session)
    game.winner = "renegade"
    game.scores = score_results(modes.get("threes"), game.results, "renegade")
    game.save()
    services.record_evening(evenings[5])
    assert_stored_is_full_replay(group)
    # The rows of the later evenings were kept and rated again: their ratings changed.
    after = _stored(group)
    later = GroupResult.objects.filter(game__evening__in=evenings[6:]).values_list("pk", flat=True)
    assert any(before[pk] != after[pk] for pk in later)
    earlier = GroupResult.objects.filter(game__evening__in=evenings[:5]).values_list(
        "pk", flat=True
    )
    assert all(before[pk] == after[pk] for pk in earlier)


def test_an_import_of_earlier_games_and_a_merge_replay_from_them() -> None:
    group, evenings = build_group()
    data = transfer.export_json(group)
    # The same people's games a year earlier, from another laptop.
    for n, g in enumerate(data["games"]):
        g["uid"] = f"early{n}"
        for key in ("started_at", "ended_at"):
            g[key] = (datetime.fromisoformat(g[key]) - timedelta(days=365)).isoformat()
    transfer.import_json(data)
    assert_stored_is_full_replay(group)
    # Evening 3's 张三 is made someone else, then merged back.
    zhangsan = group.players.get(name="张三", merged_into=None)
    seat = evenings[2].links.get(player=zhangsan).seat
    services.unmatch(evenings[2], seat)
    assert_stored_is_full_replay(group)
    merges.merge(group, zhangsan, evenings[2].links.get(seat=seat).player)
    assert_stored_is_full_replay(group)


def test_the_page_shows_the_stored_ratings_without_replaying(monkeypatch) -> None:
    group, _evenings = build_group()
    plays, _games, _names = read.load(group)
    expected = rating.rate(plays)

    def no_replay(_plays: object) -> object:
        raise AssertionError("replayed")

    monkeypatch.setattr(read, "rate", no_replay)
    shown = read.page(group)
    assert tuple(r for _p, r in shown.ratings) == expected.table
