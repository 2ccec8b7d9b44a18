"""What each card of the real deck does, in Chinese and English side by side.

Plain data: one `CardText` per card name of the box: the standard deck, the EX cards and the
expansions' cards. The facts that come from the box (type, suits and ranks of the copies, weapon
ranges) are not repeated here: `companion.rules.help` reads them from the reference tables
(`companion/data/*.csv` and each expansion's own, `companion.rules.cards.expansions`).
Each field is a (Chinese, English) pair; an empty pair means "does not apply".
"""

from __future__ import annotations

from dataclasses import dataclass

Pair = tuple[str, str]
NONE: Pair = ("", "")


@dataclass(frozen=True)
class CardText:
    """The words of one card's help entry."""

    does: Pair
    when: Pair
    answer: Pair = NONE
    facts: Pair = NONE


_PLAY = ("出牌阶段使用。", "In your play phase.")
_NULLIFY = (
    "无懈可击可抵消它对一名目标的效果。",
    "Nullification 无懈可击 cancels it for one target.",
)
_EQUIP_WHEN = (
    "出牌阶段置入你的装备区；同类装备只能有一件，新的替换旧的（旧的弃置）。",
    "Put it in your equipment zone in your play phase; one of each kind, a new one replaces the "
    "old (discarded).",
)
_PLUS_HORSE = CardText(
    does=(
        "+1马（防御马）：其他角色计算与你的距离时+1。",
        "+1 horse (defensive): every other player's distance to you is 1 more.",
    ),
    when=_EQUIP_WHEN,
    facts=(
        "距离影响杀的攻击范围、顺手牵羊和兵粮寸断（距离1）。只能装备一匹+1马，可同时装备一匹-1马。",
        "Distance decides Slash range, Snatch and Supply Shortage (distance 1). One +1 horse at a "
        "time; a -1 horse may be equipped as well.",
    ),
)
_MINUS_HORSE = CardText(
    does=(
        "-1马（进攻马）：你计算与其他角色的距离时-1（最少为1）。",
        "-1 horse (offensive): your distance to every other player is 1 less (never below 1).",
    ),
    when=_EQUIP_WHEN,
    facts=(
        "影响杀的攻击范围、顺手牵羊和兵粮寸断；与武器的攻击范围无关。只能装备一匹-1马。",
        "Counts for Slash range, Snatch and Supply Shortage; it does not change the weapon's "
        "range. One -1 horse at a time.",
    ),
)
_SLASH_ANSWER = (
    "目标可使用一张闪抵消；八卦阵判定红色也算闪。",
    "The target may use a Dodge 闪; a red Eight Diagram 八卦阵 judgement counts as one.",
)

CARD_TEXTS: dict[str, CardText] = {
    "杀": CardText(
        does=(
            "对你攻击范围内的一名其他角色使用，对其造成1点伤害。",
            "Use on another player within your attack range: 1 damage to them.",
        ),
        when=(
            "出牌阶段，每阶段限一次（诸葛连弩、咆哮等除外）；也可在决斗、南蛮入侵中打出。",
            "In your play phase, once per phase (unless Zhuge Crossbow, Roar 咆哮 or the like); "
            "also played in answer to Duel and Savage Assault.",
        ),
        answer=_SLASH_ANSWER,
        facts=(
            "攻击范围：装备的武器的范围，没有武器为1。距离≤攻击范围才能杀。",
            "Attack range: the weapon's range, 1 without a weapon. You may Slash a player whose "
            "distance is at most your range.",
        ),
    ),
    "闪": CardText(
        does=(
            "抵消一张对你生效的杀；或在万箭齐发中打出以免受伤害。",
            "Cancels a Slash aimed at you, or is played against Archery Attack to avoid the "
            "damage.",
        ),
        when=(
            "只在需要时打出，不能在出牌阶段主动使用。",
            "Only when asked for; it cannot be used on its own in the play phase.",
        ),
        facts=(
            "无双（吕布）的杀需要两张闪。八卦阵判定红色视为一张闪。",
            "A Slash of Unrivaled 无双 (Lü Bu) needs two Dodges. A red Eight Diagram judgement "
            "counts as one.",
        ),
    ),
    "桃": CardText(
        does=(
            "回复1点体力。",
            "Recover 1 HP.",
        ),
        when=(
            "出牌阶段对自己使用（体力未满时）；或任何一名角色濒死时对其使用。",
            "In your play phase on yourself (if you are hurt), or on any player who is dying.",
        ),
        facts=(
            "濒死时每张桃回复1点，直到体力为1。救援（孙权主公技）：吴势力角色的桃令主公孙权回复2点。",
            "When dying, each Peach gives 1 HP until HP is 1. Rescue 救援 (the lord Sun Quan "
            "孙权): a Wu hero's Peach heals him 2.",
        ),
    ),
    "雷杀": CardText(
        does=(
            "属性杀：如同杀，但造成雷电伤害。",
            "An elemental Slash: like Slash, but the damage is thunder damage.",
        ),
        when=(
            "同杀，计入每阶段一次的限制。",
            "As Slash; it counts towards the one Slash per phase.",
        ),
        answer=_SLASH_ANSWER,
        facts=(
            "雷电伤害会沿铁索连环传导。藤甲不能抵挡雷杀。",
            "Thunder damage spreads along Iron Chain 铁索连环. Vine Armor does not stop it.",
        ),
    ),
    "火杀": CardText(
        does=(
            "属性杀：如同杀，但造成火焰伤害。",
            "An elemental Slash: like Slash, but the damage is fire damage.",
        ),
        when=(
            "同杀，计入每阶段一次的限制。",
            "As Slash; it counts towards the one Slash per phase.",
        ),
        answer=_SLASH_ANSWER,
        facts=(
            "火焰伤害对藤甲+1，并沿铁索连环传导。",
            "Fire damage is +1 against Vine Armor 藤甲 and spreads along Iron Chain.",
        ),
    ),
    "酒": CardText(
        does=(
            "出牌阶段对自己使用：本回合你使用的下一张杀伤害+1；濒死时对自己使用：回复1点体力。",
            "In your play phase on yourself: your next Slash this turn deals 1 more damage. When "
            "you are dying, on yourself: recover 1 HP.",
        ),
        when=(
            "出牌阶段每回合限一次；濒死时不限，但只能救自己。",
            "Once per turn in the play phase; when dying, any number, but only on yourself.",
        ),
        facts=(
            "酒不能救其他角色。",
            "Wine cannot save another player.",
        ),
    ),
    "过河拆桥": CardText(
        does=(
            "对一名其他角色使用：弃置其手牌、装备区或判定区里的一张牌。",
            "On another player: discard one card of their hand, equipment or judgement zone.",
        ),
        when=(_PLAY[0] + "无距离限制。", _PLAY[1] + " No distance limit."),
        answer=_NULLIFY,
        facts=(
            "手牌由你随机抽选，装备和判定区的牌由你指定。",
            "A hand card is taken blind; an equipment or judgement card you choose.",
        ),
    ),
    "顺手牵羊": CardText(
        does=(
            "对距离1以内的一名其他角色使用：获得其手牌、装备区或判定区里的一张牌。",
            "On another player at distance 1: take one card of their hand, equipment or "
            "judgement zone.",
        ),
        when=_PLAY,
        answer=_NULLIFY,
        facts=(
            "距离计算马，不计武器。奇才（黄月英）：无距离限制。谦逊（陆逊）：不能成为目标。",
            "Horses count for the distance, weapons don't. Genius 奇才 (Huang Yueying): no "
            "distance limit. Modesty 谦逊 (Lu Xun): he cannot be the target.",
        ),
    ),
    "无中生有": CardText(
        does=("对自己使用：摸两张牌。", "On yourself: draw 2 cards."),
        when=_PLAY,
        answer=_NULLIFY,
    ),
    "决斗": CardText(
        does=(
            "对一名其他角色使用：由目标开始，双方轮流打出一张杀；先不打出杀的一方受到对方造成的1点伤害。",
            "On another player: starting with the target, you both play a Slash in turn; the "
            "first who does not takes 1 damage from the other.",
        ),
        when=(_PLAY[0] + "无距离限制。", _PLAY[1] + " No distance limit."),
        answer=(
            "无懈可击可抵消；闪不能回应决斗。无双：对手每次需打出两张杀。空城（诸葛亮无手牌）不能成为目标。",
            "Nullification cancels it; a Dodge does not answer it. Unrivaled 无双: the opponent "
            "must play two Slashes each time. Empty City 空城 (Zhuge Liang with no hand) cannot "
            "be targeted.",
        ),
    ),
    "借刀杀人": CardText(
        does=(
            "对装备区有武器的一名其他角色使用，并指定其攻击范围内的另一名角色：其须对该角色使用一张杀，否则将武器交给你。",
            "On another player with a weapon, naming a player in that player's attack range: "
            "they must Slash the named player, or give you their weapon.",
        ),
        when=_PLAY,
        answer=(
            "无懈可击可抵消；被杀的角色可用闪。",
            "Nullification cancels it; the named player may Dodge the Slash.",
        ),
        facts=(
            "这张杀算使用者（持武器者）的，不计入他的出杀次数限制。旧说明书（000）写作“借用武器”，以新版为准。",
            "The Slash is the weapon holder's and does not use up his one Slash. The older text "
            'in seed 000 ("borrow the weapon") is superseded.',
        ),
    ),
    "南蛮入侵": CardText(
        does=(
            "对所有其他角色使用：每名目标须打出一张杀，否则受到你造成的1点伤害。",
            "On every other player: each must play a Slash or take 1 damage from you.",
        ),
        when=(
            _PLAY[0] + "从你的下家开始按行动顺序逐一结算。",
            _PLAY[1] + " Resolved player by player in turn order from your next player.",
        ),
        answer=(
            "杀；无懈可击只抵消对一名目标的效果。装备藤甲的角色不受影响。",
            "A Slash; Nullification cancels it for one target only. Vine Armor 藤甲 is immune.",
        ),
    ),
    "万箭齐发": CardText(
        does=(
            "对所有其他角色使用：每名目标须打出一张闪，否则受到你造成的1点伤害。",
            "On every other player: each must play a Dodge or take 1 damage from you.",
        ),
        when=(
            _PLAY[0] + "从你的下家开始按行动顺序逐一结算。",
            _PLAY[1] + " Resolved player by player in turn order from your next player.",
        ),
        answer=(
            "闪（八卦阵可判定）；无懈可击只抵消对一名目标的效果。藤甲对其免疫。",
            "A Dodge (Eight Diagram may judge); Nullification cancels it for one target only. "
            "Vine Armor is immune.",
        ),
    ),
    "桃园结义": CardText(
        does=(
            "对所有角色使用：每名角色回复1点体力。",
            "On every player: each recovers 1 HP.",
        ),
        when=(
            _PLAY[0] + "从你开始按行动顺序逐一结算；体力已满的角色不受影响。",
            _PLAY[1] + " Resolved from you, in turn order; a player at full HP gains nothing.",
        ),
        answer=_NULLIFY,
    ),
    "五谷丰登": CardText(
        does=(
            "亮出牌堆顶与存活角色数相同数量的牌，每名角色选择并获得其中一张。",
            "Reveal as many cards from the deck as there are living players; each player takes "
            "one of them.",
        ),
        when=(
            _PLAY[0] + "从你开始按行动顺序依次选择。",
            _PLAY[1] + " You choose first, then the others in turn order.",
        ),
        answer=(
            "无懈可击可令一名角色不能获得牌（其牌留下，最后弃置）。",
            "Nullification stops one player from taking a card (the leftover is discarded at "
            "the end).",
        ),
    ),
    "无懈可击": CardText(
        does=(
            "抵消一张锦囊对一名目标的效果；也可抵消另一张无懈可击。",
            "Cancels one trick's effect on one target; it may also cancel another Nullification.",
        ),
        when=(
            "任何时候，当一张锦囊即将对一名目标生效时（延时锦囊在判定前）。",
            "Any time a trick is about to take effect on a target (a delayed trick: before "
            "its judgement).",
        ),
        answer=(
            "另一张无懈可击（可以连锁，最后一张决定结果）。",
            "Another Nullification (they chain; the last one decides).",
        ),
        facts=(
            "对闪电使用：闪电不判定，直接移到下家。对南蛮入侵等只对一名目标有效。",
            "On Lightning: no judgement, it moves on to the next player. On Savage Assault and "
            "the like: for one target only.",
        ),
    ),
    "火攻": CardText(
        does=(
            "对一名有手牌的角色（可以是你自己）使用：其展示一张手牌，然后你可以弃置一张同花色的手牌，对其造成1点火焰伤害。",
            "On a player with a hand (yourself too): they show a hand card; you may then "
            "discard a hand card of the same suit to deal them 1 fire damage.",
        ),
        when=(_PLAY[0] + "无距离限制。", _PLAY[1] + " No distance limit."),
        answer=_NULLIFY,
        facts=(
            "火焰伤害：对藤甲+1，沿铁索连环传导。",
            "Fire damage: +1 against Vine Armor, spreads along Iron Chain.",
        ),
    ),
    "铁索连环": CardText(
        does=(
            "选择一至两名角色，将其横置（连环）或重置；或将此牌重铸（弃置它，摸一张牌）。",
            "Choose one or two players and chain or unchain each; or recast it (discard it, "
            "draw a card).",
        ),
        when=_PLAY,
        answer=_NULLIFY,
        facts=(
            "连环的角色受到火焰或雷电伤害后解除连环，其他连环角色依次受到同样的伤害。",
            "When a chained player takes fire or thunder damage, he is unchained and every "
            "other chained player takes the same damage in turn.",
        ),
    ),
    "乐不思蜀": CardText(
        does=(
            "置于一名其他角色的判定区；其判定阶段判定：不是红桃则跳过出牌阶段。然后弃置此牌。",
            "Put into another player's judgement zone; in their judgement phase it is judged: "
            "anything but a heart skips their play phase. Then it is discarded.",
        ),
        when=(_PLAY[0] + "无距离限制。", _PLAY[1] + " No distance limit."),
        answer=(
            "判定前可用无懈可击抵消（弃置，不判定）。谦逊（陆逊）不能成为目标。",
            "Nullification before the judgement cancels it (discarded, no judgement). Modesty "
            "谦逊 (Lu Xun) cannot be targeted.",
        ),
        facts=(
            "判定：红桃 = 无事（1/4）。国色（大乔）可把方块牌当乐不思蜀使用。",
            "Judgement: heart = nothing happens (1 in 4). National Beauty 国色 (Da Qiao) uses "
            "any diamond as one.",
        ),
    ),
    "闪电": CardText(
        does=(
            "置于你自己的判定区；判定阶段判定：黑桃2–9则受到3点雷电伤害（无来源）并弃置；否则移到下家的判定区。",
            "Put into your own judgement zone; in the judgement phase it is judged: spade 2–9 "
            "deals 3 thunder damage (no source) and it is discarded; otherwise it moves to the "
            "next player's zone.",
        ),
        when=_PLAY,
        answer=(
            "判定前的无懈可击：不判定，直接移到下家。",
            "Nullification before the judgement: no judgement, it moves on to the next player.",
        ),
        facts=(
            "判定：黑桃2–9劈中（整副约15%）。下家已有闪电时跳过他给再下一家。闪电无伤害来源，无人得到击杀奖励。",
            "Judgement: spade 2–9 strikes (about 15% of a full deck). If the next player "
            "already has a Lightning it skips to the one after. Lightning has no source: no kill "
            "reward.",
        ),
    ),
    "兵粮寸断": CardText(
        does=(
            "置于距离1以内一名其他角色的判定区；其判定阶段判定：不是梅花则跳过摸牌阶段。",
            "Put into the judgement zone of another player at distance 1; in their judgement "
            "phase it is judged: anything but a club skips their draw phase.",
        ),
        when=_PLAY,
        answer=(
            "判定前可用无懈可击抵消。",
            "Nullification before the judgement cancels it.",
        ),
        facts=(
            "判定：梅花 = 无事（1/4）。距离计算马，不计武器。",
            "Judgement: club = nothing happens (1 in 4). Horses count for the distance, weapons "
            "don't.",
        ),
    ),
    "诸葛连弩": CardText(
        does=(
            "出牌阶段你可以使用任意张杀。",
            "You may use any number of Slashes in your play phase.",
        ),
        when=_EQUIP_WHEN,
    ),
    "雌雄双股剑": CardText(
        does=(
            "你的杀指定一名异性角色后，你可令其选择：弃置一张手牌，或令你摸一张牌。",
            "When your Slash targets a player of the other gender, you may make them choose: "
            "discard a hand card, or let you draw one.",
        ),
        when=_EQUIP_WHEN,
    ),
    "青釭剑": CardText(
        does=(
            "锁定技：你的杀无视目标的防具。",
            "Compulsory: your Slash ignores the target's armour.",
        ),
        when=_EQUIP_WHEN,
        facts=(
            "八卦阵不能判定、仁王盾挡不住黑杀、藤甲挡不住普通杀、白银狮子不减伤害。",
            "Eight Diagram cannot judge, Renwang Shield does not stop black Slashes, Vine Armor "
            "does not stop plain Slashes, Silver Lion does not cap the damage.",
        ),
    ),
    "青龙偃月刀": CardText(
        does=(
            "你的杀被闪抵消后，你可以对同一目标再使用一张杀。",
            "When your Slash is dodged, you may use another Slash on the same target.",
        ),
        when=_EQUIP_WHEN,
    ),
    "丈八蛇矛": CardText(
        does=(
            "你可以将两张手牌当杀使用或打出。",
            "You may use or play any two hand cards as a Slash.",
        ),
        when=_EQUIP_WHEN,
    ),
    "贯石斧": CardText(
        does=(
            "你的杀被闪抵消后，你可以弃置两张牌（装备区的其他牌也可），令此杀依然造成伤害。",
            "When your Slash is dodged, you may discard two cards (other equipment too) so that "
            "it still deals its damage.",
        ),
        when=_EQUIP_WHEN,
    ),
    "方天画戟": CardText(
        does=(
            "你使用的杀是你最后的手牌时，可以额外指定至多两名目标。",
            "When the Slash you use is your last hand card, it may target up to two more players.",
        ),
        when=_EQUIP_WHEN,
    ),
    "麒麟弓": CardText(
        does=(
            "你的杀对目标造成伤害时，你可以弃置其装备区里的一匹马。",
            "When your Slash damages its target, you may discard one of their horses.",
        ),
        when=_EQUIP_WHEN,
    ),
    "寒冰剑": CardText(
        does=(
            "你的杀对目标造成伤害时，你可以防止此伤害，改为依次弃置其两张牌。",
            "When your Slash would damage its target, you may prevent the damage and discard "
            "two of their cards instead.",
        ),
        when=_EQUIP_WHEN,
    ),
    "古锭刀": CardText(
        does=(
            "锁定技：你的杀对没有手牌的目标造成伤害时，此伤害+1。",
            "Compulsory: your Slash deals 1 more damage to a target with no hand cards.",
        ),
        when=_EQUIP_WHEN,
    ),
    "朱雀羽扇": CardText(
        does=(
            "你可以将一张普通杀当火杀使用。",
            "You may use a plain Slash as a Fire Slash.",
        ),
        when=_EQUIP_WHEN,
    ),
    "八卦阵": CardText(
        does=(
            "当你需要使用或打出闪时，你可以判定：红色则视为你使用或打出了一张闪。",
            "When you need to use or play a Dodge, you may judge: red counts as a Dodge.",
        ),
        when=_EQUIP_WHEN,
        facts=(
            "判定：红色（红桃、方块）成功，1/2。失败仍可从手牌出闪。青釭剑的杀令其无效。",
            "Judgement: red (heart, diamond) succeeds, 1 in 2. On a failure you may still play "
            "a Dodge from hand. Qinggang Sword ignores it.",
        ),
    ),
    "仁王盾": CardText(
        does=(
            "锁定技：黑色的杀对你无效。",
            "Compulsory: black Slashes have no effect on you.",
        ),
        when=_EQUIP_WHEN,
        facts=(
            "红色的杀照常生效。青釭剑的杀令其无效。",
            "Red Slashes work as usual. Qinggang Sword ignores it.",
        ),
    ),
    "藤甲": CardText(
        does=(
            "锁定技：南蛮入侵、万箭齐发和普通杀对你无效；你受到的火焰伤害+1。",
            "Compulsory: Savage Assault, Archery Attack and plain Slashes have no effect on you; "
            "fire damage to you is 1 more.",
        ),
        when=_EQUIP_WHEN,
        facts=(
            "雷杀、火杀照常生效（火杀还+1）。青釭剑的杀令其无效。",
            "Thunder and Fire Slashes still hit (Fire Slash +1). Qinggang Sword ignores it.",
        ),
    ),
    "白银狮子": CardText(
        does=(
            "锁定技：你受到大于1点的伤害时，防止多余的伤害（只受1点）；你失去装备区里的白银狮子时，回复1点体力。",
            "Compulsory: damage of more than 1 to you is reduced to 1; when Silver Lion leaves "
            "your equipment zone, you recover 1 HP.",
        ),
        when=_EQUIP_WHEN,
        facts=(
            "失去体力（如苦肉）不是伤害，不受影响。青釭剑的杀令其无效。",
            "Losing HP (Self-Injury 苦肉) is not damage and is not capped. Qinggang Sword "
            "ignores it.",
        ),
    ),
    "绝影": _PLUS_HORSE,
    "爪黄飞电": _PLUS_HORSE,
    "的卢": _PLUS_HORSE,
    "骅骝": _PLUS_HORSE,
    "赤兔": _MINUS_HORSE,
    "大宛": _MINUS_HORSE,
    "紫骍": _MINUS_HORSE,
}
