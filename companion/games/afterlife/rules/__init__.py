"""The afterlife's rules, plain Python: rebirth 转世 (`rebirth`: the gifts to a dead player, the
threshold, the rebirth) and dark souls 暗魂 (`souls`: the dark soul a dead player becomes, whom
it haunts, its one-off effect). A reborn player counts as dead for the end of the game: the
core's `SeatStatus.reborn` (`companion.rules.victory.for_victory`)."""
