"""Where OpenSpiel is not installed, naming ``openspiel-mcts`` (a spec the README shows) says how to install
it, in one line, rather than 'unknown agent ... choose one of ...' (audit of a newcomer's first run)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from zerosum.agents.registry import make_agent, register_agent
from zerosum.errors import AgentError

WITHOUT_PYSPIEL = "import sys; sys.modules['pyspiel'] = None; from zerosum.cli import entry; entry()"


def test_zerosum_play_without_openspiel_says_how_to_install_it() -> None:
    done = subprocess.run([sys.executable, "-c", WITHOUT_PYSPIEL, "play", "--second", "openspiel-mcts"],
                          capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
    assert "agent 'openspiel-mcts' is not available here: OpenSpiel is not installed: " \
           "pip install 'zerosum[openspiel]'" in lines[0]


def test_a_registered_agent_that_cannot_be_had_says_why(monkeypatch) -> None:
    from zerosum.agents import registry

    monkeypatch.setattr(registry, "_REGISTRY", dict(registry._REGISTRY))  # this test's names go with it
    monkeypatch.setattr(registry, "_MISSING", dict(registry._MISSING))
    register_agent("test-missing-extra", lambda: None, missing="it needs the 'nothing' extra")
    with pytest.raises(AgentError, match=r"^agent 'test-missing-extra' is not available here: it needs the "
                                         r"'nothing' extra$"):
        make_agent("test-missing-extra:sims=3")
    register_agent("test-missing-plain", lambda: None)
    with pytest.raises(AgentError, match="is not available here: what it needs is not installed"):
        make_agent("test-missing-plain")
    with pytest.raises(AgentError, match="unknown agent 'test-never-registered'"):
        make_agent("test-never-registered")
