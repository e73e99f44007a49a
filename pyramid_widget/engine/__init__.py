"""The rules engine: cards, deals, rule sets, positions, legality and the game itself.

Pure Python, standard library only, and it imports nothing from the rooms above it (solver,
widget, lessons, lab, records, cli). Its public names are on the package face:

>>> from pyramid_widget import Game
>>> Game("hard", deal=7).status.value
'playing'
"""
