"""State files' YAML: the direct writer (ttr_maps/yamlplain.py) gives the library's text character for character,
on every bundled variant's games and on values chosen to sit at each of its rules' edges, and what it leaves to the
library (a value to quote, a float, a long key, an object met twice) is written by the library as before."""

from __future__ import annotations

import random

import pytest
import yaml

from conftest import MAPS, player_range
from ttr_maps.engine.game import Game
from ttr_maps.engine.statefile import dump_state, state_from_dict, state_to_dict
from ttr_maps.yamlplain import dump, dump_fast

LIBRARY = getattr(yaml, "CSafeDumper", yaml.SafeDumper)  # what state files were written with before
LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def library(data, dumper=LIBRARY) -> str:
    return yaml.dump(data, Dumper=dumper, sort_keys=False, allow_unicode=True, width=120, default_flow_style=None)


@pytest.mark.slow
@pytest.mark.parametrize("path", sorted(MAPS.glob("variants/*.yaml")), ids=lambda p: p.stem)
def test_every_variants_states_are_the_librarys_text_and_read_back(path, tmp_path):
    """Every fifteenth position of a random game at the fewest and the most players, and its end: the same text as
    the library's (libyaml's, and PyYAML's own emitter at the end), written without it; the end and a position
    in the middle, as `dump_state` writes them, read back as the same state."""
    out = tmp_path / "game.yaml"
    for n in player_range(path):
        game = Game.from_file(path, n)
        s = game.new_initial_state(n)
        rng = random.Random(n)
        compared = 0
        while True:
            end = s.is_terminal()
            if len(s.history) % 15 == 0 or end:
                data = state_to_dict(s, variant_ref=path.stem)
                fast = dump_fast(data)
                assert fast is not None, "a state's values are all the direct writer's"
                assert fast == library(data)
                compared += 1
                if end or len(s.history) == 45:
                    assert state_from_dict(game, yaml.load(dump_state(s, out), Loader=LOADER)) == s
            if end:
                break
            s.apply(rng.choice(s.legal_actions()))
        assert fast == library(data, yaml.SafeDumper)
        assert compared > 3


# Values at the edges of the direct writer's rules: each is written in block context (a mapping's value), in
# a flow list and a flow mapping, and as a key; the text is the library's whichever writes it.
EDGES = [
    # plain: the direct writer's
    "a", "a-b", "a:b", "mt3:ab+/=", "../maps/usa.yaml", "a b c", "é", "Zürich", "東京", "_x", "=a", "+a", "a=", "1-2",
    ".a", "..", "a.", "True-ish", "nullx", "yes-no", 7, -3, 0, 10**30, True, False, None,
    # the library's: they read as another type, or need quotes somewhere
    "", " a", "a ", "a  b", "yes", "No", "on", "null", "Null", "~", "1", "-1", "0x1f", "0o7", "1_000", "1e3", ".5",
    ".inf", ".NaN", "2020-01-01", "=", "<<", "a: b", "a:", ":a", "-a", "- a", "-", "?a", "a?", "a#b", "a #b", "#a",
    "a,b", "[a]", "a]", "{a}", "a}", "&a", "*a", "!a", "|a", ">a", "'a", '"a', "%a", "@a", "`a", "...", "...a", "---",
    "---a", "a\tb", "a\nb", "a\u2028b", "\ufeffa", "a\x85b", "a\x7fb", "\U0001f600", "a\u00a0b", 1.5, float("nan"),
    "x" * 99, "x" * 100, "x" * 106, "x" * 107, "x" * 127, "x" * 128,
]


@pytest.mark.parametrize("value", EDGES, ids=repr)
def test_each_kind_of_value_is_written_as_the_library_writes_it(value):
    docs = [
        {"k": value, "rest": [1]},
        {"k": ["a", value, "b"], "m": {"a": 1, "b": value}},
        {"list": [{"x": value}, value, [value]]},
    ]
    if type(value) is not float:
        docs.append({"m": {value: 1, "z": [value]}})
        docs.append({"m": {value: [1, {value: 2}]}})
    for data in docs:
        assert dump(data) == library(data)


def test_plain_values_take_the_direct_writer_and_others_the_library():
    """The fast path is taken where the rules cover a document, and left where they do not."""
    assert dump_fast({"a": ["x y", "a.b"], "b": "a:b"}) is not None
    assert dump_fast({"a": ["a:b"], "b": {"c": 1}}) is None  # `:` is an indicator in a flow collection
    for unusual in ("yes", "a: b", " a", 1.5):
        assert dump_fast({"a": [unusual], "b": {"c": 1}}) is None
    assert dump_fast({"a": {"x" * 99: 1}, "b": [1]}) is not None
    assert dump_fast({"a": {"x" * 100: 1}, "b": [1]}) is None  # it might have to be a complex key (`? ...`)
    shared = [1]
    assert dump_fast({"a": shared, "b": [shared]}) is None  # the library writes an anchor (&id001) and an alias
    assert dump({"a": shared, "b": [shared]}) == library({"a": shared, "b": [shared]})


WORDS = ["a", "bb", "draw", "blind", "seattle-portland", "gray.1", "1red+2loco", "x" * 30, "y" * 57, "z" * 119, "é"]
UNUSUAL = ["yes", "a: b", "k:v", "1"]


def _word(rng: random.Random) -> str:
    return rng.choice(UNUSUAL) if rng.random() < 0.003 else rng.choice(WORDS)


def _random_value(rng: random.Random, depth: int):
    r = rng.random()
    if depth > 2 or r < 0.45:
        if rng.random() < 0.15:
            return rng.choice([rng.randint(-99, 10**12), True, None])
        return " ".join(_word(rng) for _ in range(rng.choice([1, 1, 1, 2, 4, 9])))
    if r < 0.75:
        return [_random_value(rng, depth + 1) if rng.random() < 0.3 else _word(rng)
                for _ in range(rng.choice([0, 1, 3, 12, 40]))]
    return {_word(rng)[:rng.choice([2, 20, 60])] + str(i): _random_value(rng, depth + 1)
            for i in range(rng.choice([0, 1, 3, 12]))}


def test_random_documents_wrap_and_fold_as_the_library_does():
    """Long flow lists and mappings wrap before an item once a line passes 120 columns, and a long plain
    scalar's words fold at a space: at every indentation, the same places as the library's."""
    rng = random.Random(17)
    direct = 0
    for _ in range(200):
        data = {f"k{i}": _random_value(rng, 0) for i in range(rng.randint(1, 4))}
        data["z"] = [_word(rng) for _ in range(rng.randint(0, 60))]
        assert dump(data) == library(data)
        direct += dump_fast(data) is not None
    assert 50 < direct < 200, "most documents take the direct writer, some the library"
