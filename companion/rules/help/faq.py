"""The questions tables argue about, each with its answer and where the answer comes from.
Plain data, Chinese and English side by side. `source` names a seed file (`seeds/000_*` …) or a
section of the rules (`RULES §N` is docs/rules.md §N); `expansion` marks the entries of a card
expansion (its key), added by the game package that plays it (`add_faqs`) and shown marked on the
help page."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Faq:
    """One question and its answer."""

    id: str
    q_zh: str
    q_en: str
    a_zh: str
    a_en: str
    source: str
    expansion: str = ""


FAQS: tuple[Faq, ...] = (
    Faq(
        "priority",
        "技能、牌面文字和通用规则冲突时听谁的？",
        "A skill, a card's text and the general rules disagree: which wins?",
        "技能优先于牌面文字，牌面文字优先于通用规则。",
        "The skill beats the card's text, and the card's text beats the general rules.",
        "seed 003",
    ),
    Faq(
        "judge-summary",
        "各个判定什么结果算成功？",
        "Which judgement result counts as success?",
        "洛神：黑色得牌并可继续判定；铁骑：红色此杀不可闪避；刚烈：不是红桃则来源弃两张手牌或受1点伤害；"
        "乐不思蜀：红桃无事；兵粮寸断：梅花无事；闪电：黑桃2–9劈中；八卦阵：红色视为闪。",
        "Goddess of the Luo 洛神: black, keep it and judge again; Iron Cavalry 铁骑: red, the "
        "Slash cannot be dodged; Unyielding 刚烈: not a heart, the source discards 2 hand cards "
        "or takes 1 damage; Indulgence: heart escapes; Supply Shortage: club escapes; Lightning: "
        "spade 2–9 strikes; Eight Diagram: red is a Dodge.",
        "seed 000; RULES §5",
    ),
    Faq(
        "luoshen",
        "洛神可以判定几次？",
        "How many times may Goddess of the Luo 洛神 judge?",
        "回合开始时发动，黑色则获得判定牌并可再判定，直到出现红色（红色牌弃置）。与判定区的延时锦囊无关。",
        "At the start of her turn; each black card is kept and she may judge again, until a red "
        "one (discarded). It has nothing to do with the delayed tricks in her zone.",
        "seed 000; RULES §5",
    ),
    Faq(
        "tieqi",
        "铁骑判定红色后还能用八卦阵吗？",
        "After a red Iron Cavalry 铁骑 judgement, may the target still use Eight Diagram?",
        "不能。红色：此杀不可被闪避，包括八卦阵的判定。黑色：照常可以出闪。",
        "No. Red: the Slash cannot be dodged in any way, Eight Diagram included. Black: Dodge as "
        "usual.",
        "RULES §5",
    ),
    Faq(
        "ganglie",
        "刚烈的判定条件是黑色还是非红桃？",
        "Unyielding 刚烈: black, or not a heart?",
        "按较新的标准版文字：不是红桃即成功（3/4）；来源选择弃置两张手牌或受到1点伤害。旧说明书写的是黑色。",
        "The newer standard wording: anything but a heart succeeds (3 in 4); the source "
        "discards 2 hand cards or takes 1 damage. The older rule book says black.",
        "RULES §5; seed 000",
    ),
    Faq(
        "guicai",
        "鬼才可以改谁的判定？什么时候？",
        "Whose judgement may Demonic Talent 鬼才 change, and when?",
        "任何角色（包括自己）的判定牌翻开后、生效前，司马懿可打出一张手牌代替它，以新牌的花色点数为结果，原判定牌弃置。"
        "可以改闪电、乐不思蜀、八卦阵、洛神、刚烈等一切判定。",
        "After any player's judgement card (his own too) is flipped and before it takes effect, "
        "Sima Yi may play a hand card in its place; the new card's suit and rank decide and the "
        "old one is discarded. It works on every judgement: Lightning, Indulgence, Eight Diagram, "
        "Goddess of the Luo, Unyielding…",
        "seed 000; RULES §5",
    ),
    Faq(
        "guicai-tiandu",
        "司马懿对郭嘉的判定发动鬼才，郭嘉得到哪张牌？",
        "Sima Yi uses Demonic Talent on Guo Jia's judgement: which card does Guo Jia get?",
        "天妒在判定生效后获得最终的判定牌，即司马懿打出的那张。",
        "Envy of Heaven 天妒 takes the final judgement card after it takes effect: the card Sima "
        "Yi played.",
        "seed 000",
    ),
    Faq(
        "nullify-nullify",
        "无懈可击可以抵消无懈可击吗？",
        "May a Nullification cancel a Nullification?",
        "可以，可以一直连锁下去。双数张互相抵消，最后一张决定：锦囊生效还是被抵消。",
        "Yes, and the chain may go on. They cancel in pairs; the last one decides whether the "
        "trick takes effect.",
        "seed 000; seed 003",
    ),
    Faq(
        "nullify-aoe",
        "无懈可击能挡住整张南蛮入侵吗？",
        "Does a Nullification stop a whole Savage Assault?",
        "不能，只抵消对一名角色的效果，其他角色照常结算。万箭齐发、桃园结义、五谷丰登同理。",
        "No, only its effect on one player; everybody else resolves as usual. The same for "
        "Archery Attack, God Salvation and Amazing Grace.",
        "seed 000",
    ),
    Faq(
        "nullify-delayed",
        "对延时锦囊什么时候用无懈可击？",
        "When is a delayed trick nullified?",
        "在它判定之前（判定阶段轮到它时）。乐不思蜀、兵粮寸断被抵消则弃置，不判定。",
        "Before its judgement, when its turn in the judgement phase comes. A cancelled "
        "Indulgence or Supply Shortage is discarded without a judgement.",
        "seed 000; RULES §3",
    ),
    Faq(
        "lightning-move",
        "闪电没劈中时去哪里？",
        "Where does Lightning go when it does not strike?",
        "移到下一名存活角色的判定区，他的判定阶段再判定。下家已有闪电则跳过他。",
        "To the next living player's judgement zone, judged in his judgement phase. A player "
        "who already has a Lightning is skipped.",
        "RULES §3",
    ),
    Faq(
        "lightning-nullify",
        "对闪电使用无懈可击会怎样？",
        "What does Nullification do to Lightning?",
        "闪电不判定，直接移到下家。它不会被弃置。",
        "No judgement: it moves straight on to the next player. It is not discarded.",
        "RULES §3; seed 000",
    ),
    Faq(
        "lightning-damage",
        "闪电劈死人算谁杀的？",
        "Who killed a player Lightning kills?",
        "没有人：闪电的伤害没有来源，没有击杀奖励，主公也不受惩罚。",
        "Nobody: Lightning's damage has no source, so no kill reward and no lord penalty.",
        "RULES §6",
    ),
    Faq(
        "delayed-order",
        "判定区有多张延时锦囊时先判哪张？",
        "Several delayed tricks in a zone: which is judged first?",
        "后放置的先判定（官方规则）。旧说明书“先闪电后乐不思蜀”已被取代。同名延时锦囊不能同时在一个判定区。",
        'The last placed is judged first (official). The old "Lightning before Indulgence" '
        "is superseded. A zone never holds two delayed tricks of the same name.",
        "RULES §3",
    ),
    Faq(
        "indulgence-target",
        "乐不思蜀可以对谁用？",
        "Who may be given Indulgence?",
        "任意一名其他角色，无距离限制；陆逊（谦逊）除外。",
        "Any other player, at any distance; not Lu Xun (Modesty 谦逊).",
        "seed 000",
    ),
    Faq(
        "indulgence-skip",
        "乐不思蜀判定失败跳过哪些阶段？",
        "What does a failed Indulgence skip?",
        "只跳过出牌阶段，仍然摸牌和弃牌。",
        "Only the play phase; the player still draws and discards.",
        "seed 000",
    ),
    Faq(
        "qinggang",
        "青釭剑对哪些防具有效？",
        "Which armour does Qinggang Sword ignore?",
        "所有防具：八卦阵不能判定、仁王盾挡不住黑杀、藤甲挡不住普通杀、白银狮子不减伤害。只对青釭剑的杀有效。",
        "All of it: no Eight Diagram judgement, Renwang Shield does not stop a black Slash, "
        "Vine Armor does not stop a plain Slash, Silver Lion does not cap the damage. Only for "
        "the Qinggang Sword's own Slash.",
        "seed 000; RULES §9",
    ),
    Faq(
        "jiedao",
        "借刀杀人是怎么结算的？",
        "How does Collateral 借刀杀人 work?",
        "对一名有武器的角色使用并指定其攻击范围内的另一名角色：他要么对该角色出杀，要么把武器交给你。旧说明书的“借用武器”不再使用。",
        "Use it on a player with a weapon and name a player in his attack range: he either "
        'Slashes that player or gives you his weapon. The old "borrow the weapon" reading is '
        "not used.",
        "seed 000; RULES (newest official wording)",
    ),
    Faq(
        "jiedao-limit",
        "借刀杀人时出的杀算他的出杀次数吗？",
        "Does the Slash of Collateral count as the holder's one Slash?",
        "不算：不是在他的出牌阶段主动使用的。",
        "No: it is not used in his own play phase by choice.",
        "RULES (newest official wording)",
    ),
    Faq(
        "wugu-order",
        "五谷丰登按什么顺序拿牌？",
        "In what order does Amazing Grace hand out its cards?",
        "从使用者开始，按行动顺序（逆时针）每人选一张。被无懈可击抵消的人不拿；剩下的牌弃置。",
        "From the user, in turn order, each takes one. A player whose part is nullified takes "
        "none; leftovers are discarded.",
        "seed 000; RULES §3",
    ),
    Faq(
        "taoyuan-order",
        "桃园结义怎么结算？",
        "How does God Salvation 桃园结义 resolve?",
        "从使用者开始按行动顺序，每名受伤的角色回复1点体力；可对其中某人用无懈可击。体力已满的不受影响。",
        "From the user in turn order, every hurt player recovers 1 HP; a Nullification may "
        "stop it for one player. A player at full HP gains nothing.",
        "seed 000",
    ),
    Faq(
        "aoe-order",
        "南蛮入侵、万箭齐发按什么顺序？",
        "In what order do Savage Assault and Archery Attack resolve?",
        "从使用者的下家开始按行动顺序逐一结算；有人濒死时先救他，再轮到下一人。",
        "From the user's next player, one by one in turn order; a player who becomes dying is "
        "saved or dies before the next one answers.",
        "seed 000; RULES §6",
    ),
    Faq(
        "dying-who",
        "濒死时谁可以救？",
        "Who may save a dying player?",
        "任何角色都可以给他桃，从当前回合角色开始按行动顺序询问，包括濒死者自己。每张桃回复1点，直到体力为1。",
        "Anybody may give him a Peach, asked in turn order from the current player, himself "
        "included. Each Peach gives 1 HP until HP is 1.",
        "RULES §6; seed 003",
    ),
    Faq(
        "dying-multi",
        "濒死时体力是-2，需要几张桃？",
        "Dying at -2 HP: how many Peaches?",
        "三张：每张回复1点，直到体力回到1。",
        "Three: each gives 1 HP, until HP is back to 1.",
        "RULES §6",
    ),
    Faq(
        "death-cards",
        "角色死亡后他的牌怎么办？",
        "What happens to a dead player's cards?",
        "身份牌亮出；手牌、装备和判定区的牌全部弃置。计算距离时不再计算他。",
        "His identity is shown; his hand, equipment and judgement zone are discarded. He no "
        "longer counts for distances.",
        "RULES §6; seed 003",
    ),
    Faq(
        "rebel-reward",
        "杀死反贼有什么奖励？",
        "What is the reward for killing a rebel?",
        "杀死反贼的角色（任何身份，包括另一个反贼）摸三张牌。",
        "Whoever kills a rebel (any identity, another rebel too) draws 3 cards.",
        "RULES §6; seed 003",
    ),
    Faq(
        "lord-loyalist",
        "主公杀死忠臣会怎样？",
        "What if the lord kills a loyalist?",
        "主公弃置所有手牌和装备区的牌。游戏继续。",
        "The lord discards his whole hand and all his equipment. The game goes on.",
        "RULES §6; seed 003",
    ),
    Faq(
        "renegade-win",
        "内奸怎么才能赢？",
        "How does the renegade win?",
        "主公死时场上只剩内奸一人存活，内奸获胜；否则反贼获胜。所以内奸要先让反贼和忠臣出局，最后单挑主公。",
        "If the lord dies when the renegade is the only other player alive, the renegade wins; "
        "otherwise the rebels win. So he must see the rebels and loyalists out first, then "
        "duel the lord alone.",
        "RULES §7",
    ),
    Faq(
        "two-renegades",
        "有两个内奸时怎么算？",
        "Two renegades: who wins?",
        "主公死时只剩一名角色且是内奸，那名内奸获胜；另一名内奸不算胜利。",
        "If the lord dies with exactly one player left alive and he is a renegade, that "
        "renegade wins; the other renegade does not.",
        "RULES §7; RULES §8",
    ),
    Faq(
        "lord-dies",
        "主公死了，反贼都已死，谁赢？",
        "The lord dies after every rebel is dead: who wins?",
        "仍然是反贼获胜（除非只剩内奸一人）。003“反贼全灭则忠臣胜”与官方规则不符，不采用。",
        "Still the rebels (unless the renegade is alone). Seed 003's \"the loyalists win if all "
        'rebels are dead" contradicts the official rule and is not followed.',
        "RULES §7",
    ),
    Faq(
        "lord-side-win",
        "主公和忠臣什么时候获胜？",
        "When do the lord and loyalists win?",
        "所有反贼和内奸都死亡时，主公和所有忠臣（无论死活）获胜。",
        "When every rebel and renegade is dead: the lord and every loyalist, alive or dead.",
        "RULES §7",
    ),
    Faq(
        "slash-limit",
        "一回合可以出几张杀？",
        "How many Slashes per turn?",
        "出牌阶段限一次；诸葛连弩、咆哮（张飞）不限。决斗和南蛮入侵中打出的杀不算。",
        "One per play phase; unlimited with Zhuge Crossbow or Roar 咆哮 (Zhang Fei). Slashes "
        "played in a Duel or against Savage Assault do not count.",
        "RULES §3",
    ),
    Faq(
        "distance-horse",
        "马和武器会同时影响顺手牵羊吗？",
        "Do horses and weapons both count for Snatch?",
        "马计算在内，武器不计：顺手牵羊和兵粮寸断需要距离1。",
        "Horses count, weapons don't: Snatch and Supply Shortage need distance 1.",
        "RULES §4",
    ),
    Faq(
        "distance-dead",
        "有人死亡后距离怎么算？",
        "How are distances counted after a death?",
        "只计算存活的角色，死者的座位不再算一格。",
        "Only living players count; a dead player's seat is no longer a step.",
        "RULES §4",
    ),
    Faq(
        "discard-limit",
        "弃牌阶段要弃到几张？",
        "How many cards do I keep at the discard phase?",
        "手牌数不能超过当前体力值，多的弃掉。克己（吕蒙）：本回合没出杀则不用弃牌。",
        "As many as your current HP; discard the rest. Self-Restraint 克己 (Lü Meng): no discard "
        "if he used no Slash this turn.",
        "RULES §3; seed 003",
    ),
    Faq(
        "hp-loss",
        "失去体力和受到伤害有什么区别？",
        "Losing HP versus taking damage?",
        "失去体力（苦肉）没有来源，不触发奸雄、反馈、刚烈等受伤技能，也不受白银狮子影响。",
        "Losing HP (Self-Injury 苦肉) has no source, triggers no damage skill (Villainous Hero, "
        "Feedback, Unyielding…) and is not capped by Silver Lion.",
        "RULES §9",
    ),
    Faq(
        "kongcheng",
        "空城的诸葛亮能被决斗吗？",
        "May Zhuge Liang with Empty City 空城 be Dueled?",
        "没有手牌时不能成为杀或决斗的目标。",
        "With no hand cards he cannot be the target of a Slash or a Duel.",
        "seed 000",
    ),
    Faq(
        "wushuang",
        "无双的杀遇到八卦阵怎么办？",
        "Unrivaled 无双 against Eight Diagram?",
        "需要两张闪，八卦阵每判定一次红色算一张，可以判定两次。决斗中对手每次要出两张杀。",
        "Two Dodges are needed; each red Eight Diagram judgement counts as one, and it may "
        "judge twice. In a Duel the opponent plays two Slashes each time.",
        "seed 000",
    ),
    Faq(
        "liuli",
        "流离可以把杀转给谁？",
        "To whom may Deflection 流离 pass a Slash?",
        "大乔攻击范围内的另一名角色，不能是出杀的人。要弃一张牌。",
        "Another player in Da Qiao's attack range, not the attacker. She discards a card.",
        "seed 000",
    ),
    Faq(
        "lord-skill",
        "主公技谁能用？",
        "Who may use a lord skill?",
        "只有身为主公时才能使用（护驾、激将、救援）。曹操、刘备、孙权不当主公时这项技能无效。",
        "Only the lord (Escort 护驾, Rouse 激将, Rescue 救援). Cao Cao, Liu Bei or Sun Quan "
        "as a non-lord cannot use it.",
        "seed 000",
    ),
    Faq(
        "lord-hp",
        "主公多一点体力吗？",
        "Does the lord get 1 extra HP?",
        "是，体力上限+1；但四人局不加。新手模式：人人4点，五人及以上主公5点。",
        "Yes, max HP +1, except in a 4-player game. First-game mode: everybody 4, the lord 5 "
        "from five players.",
        "RULES §2",
    ),
    Faq(
        "jianxiong",
        "奸雄能拿到哪些牌？",
        "Which cards does Villainous Hero 奸雄 take?",
        "对曹操造成伤害的那张牌：杀、决斗（对方最后出的杀不算）、南蛮入侵、万箭齐发、闪电等。",
        "The card that dealt the damage: Slash, Duel (not the Slashes played in it), Savage "
        "Assault, Archery Attack, Lightning…",
        "seed 000",
    ),
)


# The FAQ a game package added (`add_faqs`): each with the id of the question it follows ("": at
# the end).
_ADDED: dict[str, tuple[Faq, str]] = {}


def add_faqs(faqs: Sequence[Faq], *, after: Mapping[str, str] | None = None) -> None:
    """A game package's questions (from its `AppConfig.ready()`), each after the question `after`
    names for its id, or at the end; adding an id again replaces it."""
    for faq in faqs:
        _ADDED[faq.id] = (faq, (after or {}).get(faq.id, ""))


def all_faqs() -> tuple[Faq, ...]:
    """The FAQ in its order: the core's, and those the game packages added where they go."""
    following: dict[str, list[Faq]] = {}
    for faq, previous in _ADDED.values():
        following.setdefault(previous, []).append(faq)
    found: list[Faq] = []

    def place(faq: Faq) -> None:
        found.append(faq)
        for other in following.pop(faq.id, []):
            place(other)

    for faq in FAQS:
        place(faq)
    found.extend(faq for rest in following.values() for faq in rest)
    return tuple(found)
