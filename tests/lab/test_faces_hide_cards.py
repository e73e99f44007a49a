"""The research faces never show a face-down card, take every one-deck preset, and refuse
two-deck games with one sentence.

Under ``dark_pyramid`` and ``thirteen`` rows 1-6 are dealt face down. Along random games the
observation text (OpenSpiel's observation and information-state strings, the Gymnasium
``ansi`` render, ``Layout.describe``) is searched for the names of the face-down cards, and
the tensors are checked to be the same when the unseen cards trade places.
"""

from __future__ import annotations

import random
import re

import numpy as np
import pytest

from pyramid_widget.engine.cards import card_str
from pyramid_widget.engine.deals import deal_from_number
from pyramid_widget.engine.rules import PRESETS, get_rules
from pyramid_widget.errors import InvalidRulesError, PyramidError
from pyramid_widget.lab.fastplay import PLAYING, FastGame
from pyramid_widget.lab.observation import Layout
from pyramid_widget.lab.spiel import PyramidGame
from tests.support.optional import need

HIDDEN_GAMES = ["dark_pyramid", "thirteen"]
TWO_DECKS = [name for name, rules in PRESETS.items() if rules.decks == 2]


def names_in(text: str, cards: list[int]) -> list[str]:
    """The names of ``cards`` that appear in ``text`` as words."""
    return [card_str(c) for c in cards if re.search(rf"(?<![\w']){card_str(c)}(?![\w'])", text)]


def shuffled_unseen(fg: FastGame, rng: random.Random) -> FastGame:
    """A copy of ``fg`` whose face-down cards (and, first pass, unseen stock) trade places."""
    twin = fg.copy()
    places = twin.hidden()
    unseen = len(twin.stock) if twin.pass_number == 1 else 0
    pool = [twin.pyr[p] for p in places] + twin.stock[:unseen]
    rng.shuffle(pool)
    for p, card in zip(places, pool, strict=False):
        twin.pyr[p] = card
        twin.pos_of[card] = p
    twin.stock[:unseen] = pool[len(places) :]
    return twin


@pytest.mark.parametrize("rules", HIDDEN_GAMES)
def test_describe_and_tensor_hide_the_face_down_cards(rules: str) -> None:
    layout = Layout(get_rules(rules))
    checked = 0
    for deal in range(20):
        fg, rng = FastGame(get_rules(rules), deal_from_number(deal)), random.Random(deal)
        moves = 0
        while fg.status == PLAYING:
            down = [fg.pyr[p] for p in fg.hidden()]
            for remember in (True, False):
                text = layout.describe(fg, remember=remember, moves=moves)
                assert names_in(text, down) == [], (rules, deal, moves)
                assert text.count("##") == len(down)
                twin = shuffled_unseen(fg, random.Random(moves))
                tensor = layout.encode(fg, remember=remember)
                assert np.array_equal(tensor, layout.encode(twin, remember=remember))
            checked += bool(down)
            fg.play(rng.choice(sorted(fg.legal())))
            moves += 1
    assert checked > 200


def test_the_name_search_can_fail() -> None:
    """The same search finds a face-down card's name when it is printed."""
    fg = FastGame(get_rules("dark_pyramid"), deal_from_number(4))
    down = [fg.pyr[p] for p in fg.hidden()]
    assert names_in(" ".join(card_str(c) for c in down[:3]), down) == [
        card_str(c) for c in down[:3]
    ]


def test_the_tensor_check_can_fail() -> None:
    """Without the face-down flags the tensor would differ: the apex card's own feature."""
    rules = get_rules("dark_pyramid")
    layout = Layout(rules)
    plain = Layout(rules.replace(name="all face up", layout=rules.layout.with_face_down(())))
    fg = FastGame(rules, deal_from_number(4))
    twin = shuffled_unseen(fg, random.Random(0))
    assert not np.array_equal(plain.encode(fg, remember=True), plain.encode(twin, remember=True))
    assert np.array_equal(layout.encode(fg, remember=True), layout.encode(twin, remember=True))
    apex = fg.pyr[0]
    assert layout.encode(fg, remember=True)[layout.feature(apex, "pyramid 0")] == 0.0
    assert layout.encode(fg, remember=True)[layout.feature(apex, "unseen")] == 1.0


@pytest.mark.parametrize("rules", HIDDEN_GAMES)
def test_openspiel_strings_hide_the_face_down_cards(rules: str) -> None:
    pyspiel = need("pyspiel")
    need("pyramid_widget.lab.openspiel")
    game = pyspiel.load_game(f"pyramid_solitaire(rules={rules})")
    rng = random.Random(7)
    for _ in range(3):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
                continue
            fg = state.fast_game
            down = [fg.pyr[p] for p in fg.hidden()]
            for text in (state.observation_string(0), state.information_state_string(0)):
                assert names_in(text, down) == []
            state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("rules", HIDDEN_GAMES)
def test_openspiel_dealing_hides_the_face_down_cards(rules: str) -> None:
    pyspiel = need("pyspiel")
    need("pyramid_widget.lab.openspiel")
    state = pyspiel.load_game(f"pyramid_solitaire(rules={rules})").new_initial_state()
    for card in range(10):
        state.apply_action(card)
    text = state.observation_string(0)
    assert names_in(text, list(range(10))) == [] and text.count("##") == 10
    tensor = np.array(state.observation_tensor(0))
    assert not tensor.any()


@pytest.mark.parametrize("rules", HIDDEN_GAMES)
def test_resampling_the_infostate_keeps_what_the_player_sees(rules: str) -> None:
    pyspiel = need("pyspiel")
    need("pyramid_widget.lab.openspiel")
    state = pyspiel.load_game(f"pyramid_solitaire(rules={rules},deal=12)").new_initial_state()
    for _ in range(5):
        state.apply_action(state.legal_actions()[-1])
    rng = random.Random(1)
    other = state.resample_from_infostate(0, rng.random)
    assert other.information_state_string(0) == state.information_state_string(0)
    assert other.information_state_tensor(0) == state.information_state_tensor(0)
    before, after = state.fast_game, other.fast_game
    assert before.hidden() == after.hidden()
    assert (before.pyr, before.stock) != (after.pyr, after.stock)
    assert sorted(before.pyr + before.stock) == sorted(after.pyr + after.stock)
    seen = [p for p in range(28) if p not in before.hidden()]
    assert [before.pyr[p] for p in seen] == [after.pyr[p] for p in seen]
    assert all(after.pos_of[after.pyr[p]] == p for p in range(28) if after.pyr[p] >= 0)


@pytest.mark.parametrize("rules", HIDDEN_GAMES)
def test_gym_render_hides_the_face_down_cards(rules: str) -> None:
    gym = need("gymnasium")
    need("pyramid_widget.lab.gym_env")
    env = gym.make("PyramidSolitaire-v0", rules=rules, render_mode="ansi").unwrapped
    _, info = env.reset(options={"deal": 3})
    rng = random.Random(3)
    while True:
        fg = env.fast_game
        down = [fg.pyr[p] for p in fg.hidden()]
        assert names_in(env.render(), down) == []
        if info["result"] != "playing" or not info["legal_actions"]:
            break
        _, _, terminated, truncated, info = env.step(rng.choice(info["legal_actions"]))
        if terminated or truncated:
            break


@pytest.mark.parametrize("rules", TWO_DECKS)
def test_two_deck_games_are_refused_with_one_sentence(rules: str) -> None:
    message = rf"'{rules}' is played with two decks; play it through Game or run_experiment"
    with pytest.raises(InvalidRulesError, match=message):
        Layout(get_rules(rules))
    with pytest.raises(PyramidError, match=message):
        PyramidGame(rules)
    gym = need("gymnasium")
    need("pyramid_widget.lab.gym_env")
    with pytest.raises(InvalidRulesError, match=message):
        gym.make("PyramidSolitaire-v0", rules=rules)


@pytest.mark.parametrize("rules", ["giza", "pharaohs", "triangle", "tuts_tomb"])
def test_gym_plays_the_new_one_deck_layouts(rules: str) -> None:
    gym = need("gymnasium")
    checker = need("gymnasium.utils.env_checker")
    need("pyramid_widget.lab.gym_env")
    env = gym.make("PyramidSolitaire-v0", rules=rules).unwrapped
    checker.check_env(env, skip_render_check=True)
    obs, _ = env.reset(options={"deal": 5})
    assert obs.shape == (Layout(get_rules(rules)).size,)
