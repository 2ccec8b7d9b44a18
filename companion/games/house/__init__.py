"""Seed 003's house rules (docs/rules.md §1, §2, §9.6), table options of the identity game:
rebels who know each other (`rebels_know_each_other`) and the lord's five cards
(`lord_five_cards`). Its rules (`rules`, plain Python), its hooks (`hooks`: what each phone and
the header show), its words (`words`) and its templates (the covered card's fellows, the lord's
start cards, the header's reminder)."""
