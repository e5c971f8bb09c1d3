"""`uxbench/baseline/...`, `uxbench/replay/...` and `uxbench/replay-grm/...` under the uxbench provider;
the earlier `baseline/`, `replay/` and `replay-grm/` names still work, with a deprecation warning."""

import logging
from pathlib import Path

import pytest
from inspect_ai.model import get_model

from uxbench.providers.baseline import BaselineAPI
from uxbench.providers.replay import ReplayAPI, ReplayGraderAPI


def test_new_names_are_served_by_the_uxbench_provider(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING):
        model = get_model("uxbench/baseline/always-good", memoize=False)
    assert str(model) == "uxbench/baseline/always-good" and isinstance(model.api, BaselineAPI)
    assert "deprecated" not in caplog.text


@pytest.mark.parametrize(("family", "api"), [("replay", ReplayAPI), ("replay-grm", ReplayGraderAPI)])
def test_replay_names(tmp_path: Path, family: str, api: type, monkeypatch: pytest.MonkeyPatch) -> None:
    created: list[str] = []
    monkeypatch.setattr(api, "__init__", lambda self, name, **_: created.append(name))
    monkeypatch.setattr(api, "model_name", "", raising=False)
    model = get_model(f"uxbench/{family}/gpt-5", memoize=False)
    assert created == ["gpt-5"] and str(model) == f"uxbench/{family}/gpt-5"


@pytest.mark.parametrize("family", ["baseline", "replay", "replay-grm"])
def test_old_names_are_deprecated_aliases(
    family: str, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    name = "always-good" if family == "baseline" else "nobody"
    with caplog.at_level(logging.WARNING):
        try:
            args = {} if family == "baseline" else {"outputs": str(tmp_path)}
            model = get_model(f"{family}/{name}", memoize=False, **args)
        except Exception as error:  # a replay of a model without files: the class was reached
            assert "none of" in str(error)
        else:
            assert str(model) == f"{family}/{name}"
    assert f"--model {family}/<name> is deprecated" in caplog.text
    assert f"use uxbench/{family}/<name>" in caplog.text
