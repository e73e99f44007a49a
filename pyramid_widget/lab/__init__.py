"""The probability lab: fast playouts, strategies, Monte Carlo experiments, intervals, plots,
and the OpenSpiel-style research face.

>>> from pyramid_widget.lab.experiments import run_experiment
>>> run_experiment("medium", ["greedy"], games=20, seed=1, jobs=1, progress=False).summary()[0].games
20
"""
