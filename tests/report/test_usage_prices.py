"""`uxbench report --prices`: a role is costed from its tokens when the file prices every model
of it; otherwise it keeps the log's cost or none (never 0), and each cost says where it is from."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from uxbench.report.token_usage import LOG, PRICE_FILE, RoleUsage, RunUsage, Tokens
from uxbench.report.usage_prices import priced_role, priced_run
from uxbench.runtime.prices import Price

PRICES = {"openai/m": Price(2, 8, 2.5, 0.5), "g": Price(1, 4)}
counts = st.integers(min_value=0, max_value=10**8)
tokens = st.builds(Tokens, st.sampled_from(["openai/m", "openai/g"]), counts, counts, counts, counts)


def role(*parts: Tokens, cost: float | None = None) -> RoleUsage:
    return RoleUsage(parts, cost, None if cost is None else LOG)


def test_a_priced_model_is_costed_from_every_kind_of_token() -> None:
    found = priced_role(role(Tokens("openai/m", 1000, 500, 200, 100), cost=9.0), PRICES)
    assert found.cost == pytest.approx((1000 * 2 + 500 * 8 + 100 * 2.5 + 200 * 0.5) / 1e6)
    assert found.cost_source == PRICE_FILE
    # a model found without its provider (`g` for openai/g), cache tokens at its input price
    found = priced_role(role(Tokens("openai/g", 10, 1, 5, 5)), PRICES)
    assert found.cost == pytest.approx((10 + 4 + 10) / 1e6) and found.cost_source == PRICE_FILE


@pytest.mark.parametrize("cost", [None, 0.25])
def test_a_model_the_file_does_not_price_keeps_the_logs_cost_or_none(cost: float | None) -> None:
    alone = role(Tokens("openai/other", 10, 10), cost=cost)
    assert priced_role(alone, PRICES) == alone
    mixed = role(Tokens("openai/m", 10, 10), Tokens("openai/other", 10, 10), cost=cost)
    assert priced_role(mixed, PRICES) == mixed  # never part priced, part not
    unknown = role(Tokens(None, 10, 10), cost=cost)  # a role bound to several models
    assert priced_role(unknown, PRICES) == unknown
    assert (priced_role(alone, PRICES).cost_source, priced_role(alone, PRICES).cost) == (
        None if cost is None else LOG,
        cost,
    )


def test_both_roles_of_a_run_and_a_run_without_usage() -> None:
    run = RunUsage(role(Tokens("openai/m", 10, 1)), role(Tokens("openai/other", 5, 1), cost=0.1))
    found = priced_run(run, PRICES)
    assert found is not None and found.model is not None and found.grader is not None
    assert (found.model.cost_source, found.grader.cost_source, found.grader.cost) == (PRICE_FILE, LOG, 0.1)
    assert priced_run(None, PRICES) is None
    assert priced_run(RunUsage(None, None), PRICES) == RunUsage(None, None)


@given(st.lists(tokens, min_size=1, max_size=4), st.integers(min_value=0, max_value=100))
def test_a_roles_cost_is_linear_in_its_tokens_and_never_negative(parts: list[Tokens], k: int) -> None:
    one = priced_role(role(*parts), PRICES).cost
    assert one is not None and one >= 0
    scaled = [Tokens(t.model, k * t.input, k * t.output, k * t.cache_read, k * t.cache_write) for t in parts]
    assert priced_role(role(*scaled), PRICES).cost == pytest.approx(k * one, rel=1e-9, abs=1e-12)
    each = sum(priced_role(role(t), PRICES).cost or 0.0 for t in parts)
    assert one == pytest.approx(each, rel=1e-9, abs=1e-12)
