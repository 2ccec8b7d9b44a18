"""军争's questions in the rules help's FAQ (docs/rules.md §6, §9): 酒 on the dying, the chain,
the armour, 火攻, the order of the damage and 兵粮寸断, marked as its entries and added by its
app (`register_deck`)."""

from __future__ import annotations

from companion.games.maneuvering.rules import KEY
from companion.rules.help.faq import Faq

FAQS: tuple[Faq, ...] = (
    Faq(
        "dying-wine",
        "酒能救别人吗？",
        "May Wine 酒 save another player?",
        "不能。酒只能在自己濒死时对自己使用，回复1点。桃可以救任何人。",
        "No. Wine only saves its user when he is dying (1 HP). A Peach saves anybody.",
        "RULES §6; seed 003",
        KEY,
    ),
    Faq(
        "chain",
        "铁索连环的伤害怎么传导？",
        "How does damage spread along Iron Chain?",
        "被连环的角色受到火焰或雷电伤害后解除连环；然后其他被连环的角色从当前回合角色开始按行动顺序，依次解除连环并受到同样来源、同样属性、同样点数（按第一人防具前的点数）的伤害，各自的防具照常计算。",
        "A chained player who takes fire or thunder damage is unchained; then every other "
        "chained player, in turn order from the current player, is unchained and takes damage "
        "of the same source, element and amount (the first one's before his armour), through "
        "his own armour.",
        "RULES §9",
        KEY,
    ),
    Faq(
        "chain-normal",
        "普通伤害会沿铁索传导吗？",
        "Does normal damage spread along a chain?",
        "不会，只有火焰和雷电伤害会传导。",
        "No, only fire and thunder damage.",
        "RULES §9",
        KEY,
    ),
    Faq(
        "vine",
        "藤甲挡什么、怕什么？",
        "What does Vine Armor stop, and what hurts it?",
        "挡普通杀、南蛮入侵、万箭齐发；雷杀照常；火焰伤害+1（火杀、火攻、朱雀羽扇的杀、连环传来的火）。青釭剑无视它。",
        "It stops plain Slashes, Savage Assault and Archery Attack; thunder hits as usual; fire "
        "damage is +1 (Fire Slash, Fire Attack, Vermilion Feather Fan, fire from a chain). "
        "Qinggang Sword ignores it.",
        "RULES §9",
        KEY,
    ),
    Faq(
        "silver-lion",
        "白银狮子怎么减伤？失去时回血吗？",
        "How does Silver Lion cap damage? Does losing it heal?",
        "每次受到的伤害大于1点时只受1点（在酒、古锭刀、藤甲之后最后计算）。离开装备区（被替换、被拆、被顺）时回复1点体力。",
        "Each damage above 1 becomes 1 (applied last, after Wine, Guding Blade and Vine "
        "Armor). When it leaves the equipment zone (replaced, dismantled, snatched) the owner "
        "recovers 1 HP.",
        "RULES §9",
        KEY,
    ),
    Faq(
        "fire-attack",
        "火攻怎么用？",
        "How does Fire Attack work?",
        "对一名有手牌的角色（可以是自己）使用；他展示一张手牌，你弃一张同花色的手牌则对他造成1点火焰伤害，否则无事。",
        "On a player with a hand (yourself too); he shows a hand card, and if you discard a "
        "hand card of that suit he takes 1 fire damage; otherwise nothing.",
        "RULES §9",
        KEY,
    ),
    Faq(
        "damage-order",
        "酒、古锭刀、藤甲、白银狮子一起时伤害怎么算？",
        "Wine, Guding Blade, Vine Armor and Silver Lion together: how much damage?",
        "牌的基础伤害，+1（酒），+1（古锭刀，目标无手牌），然后防具：藤甲（火+1或挡普通杀），最后白银狮子把大于1的伤害变为1。青釭剑令防具无效。",
        "The card's damage, +1 for Wine, +1 for Guding Blade (target with no hand), then the "
        "armour: Vine Armor (fire +1, or stops a plain Slash), last Silver Lion makes anything "
        "above 1 into 1. Qinggang Sword cancels the armour.",
        "RULES §9",
        KEY,
    ),
    Faq(
        "supply",
        "兵粮寸断有距离限制吗？",
        "Does Supply Shortage have a distance limit?",
        "有，目标需在距离1以内（马计算在内）；奇才（黄月英）无距离限制。梅花无事，否则跳过摸牌阶段。",
        "Yes, distance 1 (horses count); Genius 奇才 (Huang Yueying) has no limit. A club "
        "escapes; otherwise the draw phase is skipped.",
        "RULES §4; RULES §5",
        KEY,
    ),
)
# The question each follows in the help's FAQ (the others come at its end).
AFTER = {"dying-wine": "dying-who"}
