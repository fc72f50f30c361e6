"""Ticket decks: suggest one for a board, score it, compare two, balance values by simulated play.

paths (shortest paths and route loads) → figures (a deck's figures) → published
(the bundled editions' decks, measured) → suggest / score / compare / balance.
"""
