"""Each identity's goal and first tips (seed 003, part 四 基础思路; docs/rules.md §7), Chinese and
English side by side. All four travel together in one file the phone loads: the page
never holds the tips of its own identity, so its size and shape do not depend on it."""

from __future__ import annotations

ROLE_TIPS: dict[str, dict[str, dict[str, object]]] = {
    "lord": {
        "zh": {
            "goal": "消灭所有反贼和内奸，并且自己存活。你死了游戏就结束。",
            "tips": [
                "别盲砍：先看清谁在攻击你，误杀忠臣要弃光手牌和装备。",
                "留闪保命，留无懈可击防乐不思蜀。",
            ],
        },
        "en": {
            "goal": "See every rebel and renegade dead, and stay alive: the game ends when you "
            "die.",
            "tips": [
                "Don't strike blindly: watch who attacks you; killing a loyalist costs you your "
                "hand and equipment.",
                "Keep Dodges to live and a Nullification against Indulgence.",
            ],
        },
    },
    "loyalist": {
        "zh": {
            "goal": "保护主公：所有反贼和内奸死亡时与主公一同获胜（死了也算）。",
            "tips": [
                "明保主公，主动吸引火力，让主公看出你是忠臣。",
                "主公濒死时优先给桃。",
            ],
        },
        "en": {
            "goal": "Protect the lord: you win with him when every rebel and renegade is dead "
            "(even if you died).",
            "tips": [
                "Guard the lord openly and draw the fire, so he can tell you are loyal.",
                "When the lord is dying, your Peach goes to him first.",
            ],
        },
    },
    "rebel": {
        "zh": {
            "goal": "杀死主公：主公一死，所有反贼获胜（死了也算），除非只剩内奸一人。",
            "tips": [
                "集火主公，和同伴一起压低他的体力。",
                "杀死反贼的人摸三张牌：别让同伴白白送奖励。",
            ],
        },
        "en": {
            "goal": "Kill the lord: when he dies, every rebel wins (dead ones too), unless the "
            "renegade is the only one left.",
            "tips": [
                "Focus your fire on the lord, together with the other rebels.",
                "Whoever kills a rebel draws 3 cards: don't hand out that reward.",
            ],
        },
    },
    "renegade": {
        "zh": {
            "goal": "最后与主公单挑并杀死他：主公死时只剩你一人存活才获胜。",
            "tips": [
                "前期隐藏身份，帮弱的一方维持平衡，别让主公太早死。",
                "后期反水：反贼和忠臣都出局后，再对主公出手。",
            ],
        },
        "en": {
            "goal": "Be the last one left with the lord and kill him: you win only if you are "
            "the only player alive when he dies.",
            "tips": [
                "Early on hide your identity and help the weaker side: the lord must not die "
                "too soon.",
                "Turn late: once the rebels and loyalists are out, go for the lord.",
            ],
        },
    },
}
