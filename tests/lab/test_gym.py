"""The Gymnasium face as Gymnasium's own code uses it: gym.make, check_env, masked random
agents; and it plays the lab's ``random`` strategy's game."""

from __future__ import annotations

import numpy as np
import pytest

from pyramid_widget.engine.game import Game
from pyramid_widget.engine.rules import PRESETS
from pyramid_widget.errors import InvalidDealError, InvalidMoveError, InvalidRulesError
from pyramid_widget.lab.experiments import run_experiment
from pyramid_widget.lab.fastplay import FastGame
from pyramid_widget.lab.spiel import DRAW_ACTION, REDEAL_ACTION, fast_move_to_action
from pyramid_widget.lab.stats_ci import wilson
from tests.support.optional import need
from tests.support.tier import sized

gym = need("gymnasium")
env_checker = need("gymnasium.utils.env_checker")
gym_env = need("pyramid_widget.lab.gym_env")


def make(rules: str = "medium", **kwargs: object) -> object:
    return gym.make("PyramidSolitaire-v0", rules=rules, **kwargs).unwrapped


@pytest.mark.parametrize("rules", ["medium", "apophis", "egypt", "easy"])
def test_check_env(rules: str) -> None:
    env_checker.check_env(make(rules), skip_render_check=True)


def test_seeded_resets_give_the_same_deals() -> None:
    env, twin = make(), make()
    deals = [env.reset(seed=9)[1]["deal"]] + [env.reset()[1]["deal"] for _ in range(3)]
    again = [twin.reset(seed=9)[1]["deal"]] + [twin.reset()[1]["deal"] for _ in range(3)]
    assert deals == again and len(set(deals)) == 4
    _, info = env.reset(options={"deal": 7})
    assert info["deal"] == 7 and env.fast_game.pyr[0] == 16  # deal 7 starts with 5C
    with pytest.raises(InvalidDealError):
        env.reset(options={"deal": -1})
    with pytest.raises(InvalidRulesError):
        make("klondike")


def test_mask_rewards_and_illegal_actions() -> None:
    env = make("medium")
    obs, info = env.reset(options={"deal": 7})
    legal = info["legal_actions"]
    assert list(np.flatnonzero(info["action_mask"])) == legal and DRAW_ACTION in legal
    illegal = next(a for a in range(2811) if a not in legal)
    before = obs.copy()
    obs, reward, _, _, info = env.step(illegal)
    assert info["illegal"] and reward == -1.0 and (obs == before).all() and info["moves"] == 1
    obs, reward, *_ = env.step(DRAW_ACTION)
    assert reward == 0.0
    pairs = [a for a in info["legal_actions"] if a < 2704]
    if pairs:
        _, reward, *_ = env.step(pairs[0])
        assert reward == 2.0
    with pytest.raises(InvalidMoveError):
        env.step(99_999)


def test_the_winning_move_earns_the_bonus() -> None:
    env = make("medium")
    env.reset(options={"deal": 7})
    last_king = Game.from_position("medium", pyramid=[None] * 27 + ["KS"], stock=["4D"])
    env._fg = FastGame.from_game(last_king)  # a position one King from the win
    env._legal = env._legal_now()
    _, reward, terminated, truncated, info = env.step(fast_move_to_action(("king", (51,))))
    assert terminated and not truncated and info["result"] == "won" and reward == 1.0 + 10.0


def test_random_agent_reproduces_the_random_strategy() -> None:
    """400 masked-random Gymnasium episodes (1,000 with ``--thorough``) win as often as the
    lab's ``random`` strategy (both pick uniformly among the legal moves)."""
    games = sized(1000, quick=400)
    reference = run_experiment("easy", ["random"], games=games, seed=5, jobs=1, progress=False)
    expected = reference.summary(confidence=0.999)[0]
    env = make("easy")
    agent = np.random.default_rng(6)
    _, info = env.reset(seed=7)
    wins = 0
    for _ in range(games):
        while True:
            action = agent.choice(info["legal_actions"])  # uniform, like action_space.sample(mask)
            _, _, terminated, truncated, info = env.step(action)
            if terminated or truncated:
                break
        wins += info["result"] == "won"
        _, info = env.reset()
    low, high = wilson(wins, games)
    print(f"gym random {wins}/{games} [{low:.3f}, {high:.3f}]; lab random {expected.won}/{games}")
    assert expected.win_rate > 0.05  # easy gives random play a rate worth comparing
    assert expected.ci_low <= wins / games <= expected.ci_high


ONE_DECK_WITH_STOCK = [r for r, rs in PRESETS.items() if rs.decks == 1 and rs.stock_size]


def test_observations_never_show_the_face_down_stock() -> None:
    for rules in ONE_DECK_WITH_STOCK:
        env = make(rules)
        env.reset(options={"deal": 30})
        for _ in range(2):
            obs, *_ = env.step(DRAW_ACTION)
        fg = env.fast_game
        shown = 1 if PRESETS[rules].stock_face_up else 0
        hidden = fg.stock[: len(fg.stock) - shown]
        fg.stock[: len(hidden)] = hidden[::-1]  # another order of the face-down cards
        assert hidden != hidden[::-1]
        assert (env._observe() == obs).all(), rules


def test_the_second_pass_observation_gives_the_stock_order_seen() -> None:
    env = make("medium", render_mode="ansi")
    obs, info = env.reset(options={"deal": 30})
    while REDEAL_ACTION not in info["legal_actions"]:
        obs, *_, info = env.step(DRAW_ACTION)
    obs, *_, info = env.step(REDEAL_ACTION)
    fg = env.fast_game
    fg.stock.reverse()
    assert not (env._observe() == obs).all()
    assert "next first:" in env.render()
