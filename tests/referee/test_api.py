"""The referee's API (`referee/__init__.py`): every name it lists loads, from the module it
names, and the wire's terminations are the referee's."""

from __future__ import annotations

import importlib

import referee
from referee.protocol.codec import TERMINATIONS as WIRE_TERMINATIONS


def test_every_name_of_the_api_loads_from_its_home() -> None:
    assert sorted(referee.__all__) == sorted(referee._WHERE)
    for name, module in referee._WHERE.items():
        assert getattr(referee, name) is getattr(importlib.import_module(module), name), name


def test_the_terminations_are_the_protos() -> None:
    assert set(referee.Termination) == set(WIRE_TERMINATIONS)
    assert referee.Termination.TIMEOUT == "timeout"


def test_the_closed_sets_are_enums_that_read_as_their_names() -> None:
    config = referee.MatchConfig(clock="cpu", fault_policy="forfeit")
    assert config.clock is referee.Clock.CPU and config.fault_policy is referee.FaultPolicy.FORFEIT
    assert f"{config.clock}" == "cpu" and referee.Clock.CPU == "cpu"
