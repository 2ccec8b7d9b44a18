"""The app's words in the active language: the history's event lines (`history`, its registry;
the lines themselves in `table_lines` and `play_lines`, a game package's in its
`words`), the labels of identities, sides, phases and outcomes (`labels`), the names of
heroes, kingdoms, cards, skills and judgements (`names`), the variants' words (`variants`) and
the session's charts (`charts`).

The line modules register into `history` when imported, here, in this order: a module that
varies another's line or adds clauses after it comes after that one (clauses follow the order
they were registered in).
"""

# isort: off
from companion.words import table_lines  # noqa: F401 - imported for the lines it registers
from companion.words import play_lines  # noqa: F401
# isort: on
