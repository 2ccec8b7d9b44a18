"""The app's words in the active language: the history's event lines (`history`), the labels of
identities, sides, phases and outcomes (`labels`), the names of heroes, kingdoms, cards, skills
and judgements (`names`), the variants' words (`variants`) and the session's charts (`charts`).
"""
