"""The guided first game: what to take out of the box for a player count, then the
steps through seating, the deal and the first turn. Plain data, Chinese and English side by side.

First-game mode follows docs/rules.md §2 and the rule books' "第一次游戏" (seeds 000/001/004): no
hero skills, every player 4 HP (the lord 5 from five players), and the J, Q and K cards set aside.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.rules.cards import Card, load_deck
from companion.rules.heroes import STANDARD_HEROES, max_hp
from companion.rules.identities import Identity, distribution

Pair = tuple[str, str]

ASIDE_RANKS = (11, 12, 13)


@dataclass(frozen=True)
class Picture:
    """A row of cards the app draws: a label and each card as text: its corner (suit and rank,
    or "" for an identity card) and its name in both languages."""

    label: Pair
    cards: tuple[tuple[str, str, str], ...]
    red: tuple[bool, ...]


@dataclass(frozen=True)
class Step:
    """One step: a title, one sentence, what to tick off, and the cards concerned."""

    title: Pair
    sentence: Pair
    checklist: tuple[Pair, ...]
    pictures: tuple[Picture, ...] = ()


_IDENTITY_NAMES: dict[Identity, Pair] = {
    Identity.LORD: ("主公", "Lord"),
    Identity.LOYALIST: ("忠臣", "Loyalist"),
    Identity.REBEL: ("反贼", "Rebel"),
    Identity.RENEGADE: ("内奸", "Renegade"),
}


def aside_cards() -> tuple[Card, ...]:
    """The J, Q and K cards of the standard deck and EX, set aside for a first game."""
    return tuple(c for c in load_deck(ex=True) if c.rank in ASIDE_RANKS)


def kept_count() -> int:
    """How many game cards a first game plays with."""
    return len(load_deck(ex=True)) - len(aside_cards())


def _picture(label: Pair, cards: tuple[Card, ...]) -> Picture:
    return Picture(
        label=label,
        cards=tuple((c.label, c.name_zh, c.name_en) for c in cards),
        red=tuple(c.is_red for c in cards),
    )


def _identity_picture(players: int) -> Picture:
    counts = distribution(players)
    cards: list[tuple[str, str, str]] = []
    red: list[bool] = []
    for identity, count in counts.items():
        cards.extend([("", *_IDENTITY_NAMES[identity])] * count)
        red.extend([identity is Identity.LORD] * count)
    return Picture(("身份牌", "Identity cards"), tuple(cards), tuple(red))


def _hero_picture() -> Picture:
    """The heroes of 4 HP: a first game plays without skills, so these are the ones to use."""
    heroes = tuple(h for h in STANDARD_HEROES if h.hp == 4)
    return Picture(
        ("4体力的武将（任选）", "Heroes with 4 HP (any of them)"),
        tuple(("", h.name_zh, h.name_en) for h in heroes),
        tuple(False for _h in heroes),
    )


def _basic_picture() -> Picture:
    deck = load_deck(ex=True)
    firsts = []
    for name in ("杀", "闪", "桃"):
        firsts.append(next(c for c in deck if c.name_zh == name and c.rank not in ASIDE_RANKS))
    return _picture(("杀、闪、桃", "Slash, Dodge, Peach"), tuple(firsts))


def steps(players: int) -> tuple[Step, ...]:
    """The steps of a first game for this many players (4 to 10)."""
    counts = distribution(players)
    lord_hp = max_hp(hero_hp=None, is_lord=True, player_count=players, first_game=True)
    identity_zh = "、".join(f"{_IDENTITY_NAMES[i][0]}{n}张" for i, n in counts.items() if n)
    identity_en = ", ".join(
        f"{n} {_IDENTITY_NAMES[i][1]}{'s' if n > 1 else ''}" for i, n in counts.items() if n
    )
    aside = aside_cards()
    kept = kept_count()
    box = Step(
        title=("从盒子里拿出", "Take out of the box"),
        sentence=(
            f"{players}人局：拿出下面这些，其余留在盒子里。",
            f"{players} players: take out what follows and leave the rest in the box.",
        ),
        checklist=(
            (f"身份牌{players}张：{identity_zh}。", f"{players} identity cards: {identity_en}."),
            (
                f"武将牌{players}张，选4体力的武将，本局不用技能。",
                f"{players} hero cards, heroes with 4 HP; no skills this game.",
            ),
            (f"体力牌{players}张。", f"{players} HP cards."),
            (
                f"游戏牌：挑出全部J、Q、K（{len(aside)}张）放在一边，用剩下的{kept}张。",
                f"Game cards: set all J, Q and K aside ({len(aside)} cards) and play with the "
                f"other {kept}.",
            ),
            ("空白牌和大小王不用。", "Leave the blank cards and jokers out."),
        ),
        pictures=(
            _identity_picture(players),
            _hero_picture(),
            _picture(("放在一边的J、Q、K", "Set aside: the J, Q and K"), aside),
        ),
    )
    seating = Step(
        title=("入座", "Seating"),
        sentence=(
            "围桌坐好，每人用手机扫码加入，并把座位顺序排成和真实座位一样。",
            "Sit round the table, everybody scans the QR code with a phone, and the seats are "
            "put in the real order.",
        ),
        checklist=(
            ("主持人在首页点“开新桌”。", "The host taps New table on the start page."),
            ("每人扫码、输入名字。", "Everybody scans the code and types a name."),
            (
                "主持人用↑↓把座位排成真实座位顺序：从主公开始，轮到右手边的人。",
                "The host orders the seats (↑ ↓) as people sit: play goes from the lord to the "
                "player on his right.",
            ),
            ("勾选“新手模式（无武将技能）”。", "Tick First-game mode (no heroes)."),
        ),
    )
    deal = Step(
        title=("发身份", "The deal"),
        sentence=(
            "主持人点“发身份”：主公亮明，其他人按住手机上的身份牌偷看自己的身份。",
            "The host taps Deal identities: the lord is shown to all, everybody else presses "
            "and holds the card on the phone to see his own.",
        ),
        checklist=(
            ("主公把主公身份牌正面朝上放在面前。", "The lord puts the Lord card face up."),
            ("其他人不要给别人看手机。", "Nobody else shows his phone."),
            (
                f"每人拿一张武将牌和体力牌：4点体力，主公{lord_hp}点。",
                f"Everybody takes a hero card and an HP card: 4 HP, the lord {lord_hp}.",
            ),
            ("洗牌，每人摸4张。", "Shuffle the game cards; everybody draws 4."),
        ),
        pictures=(_identity_picture(players),),
    )
    first_turn = Step(
        title=("第一个回合", "The first turn"),
        sentence=(
            "主公先行动：判定、摸两张牌、出牌（每回合一张杀）、弃牌到体力值，然后轮到右手边的人。",
            "The lord goes first: judgement, draw 2 cards, play (one Slash a turn), discard "
            "down to his HP, then the player on his right.",
        ),
        checklist=(
            (
                "杀：对攻击范围内的人造成1点伤害；对方可出闪抵消。",
                "Slash: 1 damage to a player in range; he may cancel it with a Dodge.",
            ),
            ("桃：回复1点体力，或救濒死的人。", "Peach: recover 1 HP, or save a dying player."),
            (
                "受到伤害时在手机上点“−”并点是谁造成的。",
                "When you take damage, tap − on your phone and then who dealt it.",
            ),
            (
                "当前玩家点“结束回合”把回合交给下一家。",
                "The current player taps End turn to pass the turn on.",
            ),
        ),
        pictures=(_basic_picture(),),
    )
    return (box, seating, deal, first_turn)


PHASE_HINTS: dict[str, Pair] = {
    "start": ("回合开始：有些技能在此时发动。", "Start: some skills trigger now."),
    "judgement": (
        "判定阶段：判定区有延时锦囊就翻牌判定，后放的先判。",
        "Judgement: judge the delayed tricks in your zone, last placed first.",
    ),
    "draw": ("摸牌阶段：从牌堆摸两张牌。", "Draw: take 2 cards from the deck."),
    "play": (
        "出牌阶段：可以出任意张牌，但杀每回合只能出一张。",
        "Play: use as many cards as you like, but only one Slash.",
    ),
    "discard": (
        "弃牌阶段：手牌多于当前体力值就弃到相等。",
        "Discard: keep no more cards than your current HP.",
    ),
    "end": ("回合结束：轮到下一家。", "End: the turn passes to the next player."),
}
