"""The probability lab: fast playouts, strategies, Monte Carlo experiments, intervals, plots,
and the research faces (:mod:`.spiel` with no dependencies; :mod:`.openspiel` and
:mod:`.gym_env` for OpenSpiel and Gymnasium, with the ``research`` extra).

>>> from pyramid_widget.lab.experiments import run_experiment
>>> run_experiment("medium", ["greedy"], games=20, seed=1, jobs=1, progress=False).summary()[0].games
20
"""
