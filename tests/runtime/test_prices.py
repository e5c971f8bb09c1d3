"""The price file `uxbench estimate --prices` and `uxbench report --prices` share: read in
Inspect's `--model-cost-config` shape, priced as Inspect prices a call, refused in one line."""

from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from uxbench.cli import uxbench
from uxbench.runtime.errors import DataError
from uxbench.runtime.prices import Price, price_of, read_prices

counts = st.integers(min_value=0, max_value=10**9)
rates = st.floats(min_value=0, max_value=1000, allow_nan=False)
prices = st.builds(Price, rates, rates, st.none() | rates, st.none() | rates)


def write(tmp_path: Path, text: str, name: str = "prices.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_inspects_shape_in_yaml_and_json(tmp_path: Path) -> None:
    full = "openai/gpt-4o: {input: 2.5, output: 10, input_cache_write: 3.125, input_cache_read: 1.25}\n"
    assert read_prices(write(tmp_path, full)) == {"openai/gpt-4o": Price(2.5, 10.0, 3.125, 1.25)}
    short = write(tmp_path, '{"m": {"input": 1, "output": 4}}', "prices.json")
    assert read_prices(short) == {"m": Price(1.0, 4.0)}


def test_a_model_is_found_by_its_log_name_or_without_its_provider() -> None:
    table = {"gpt-4o": Price(1, 2), "openai/gpt-4.1": Price(3, 4)}
    assert price_of(table, "openai/gpt-4o") == Price(1, 2)
    assert price_of(table, "openai/gpt-4.1") == Price(3, 4)
    assert price_of(table, "anthropic/claude") is None


def test_cached_tokens_at_their_prices_or_else_at_the_input_price() -> None:
    assert Price(2, 8, 2.5, 0.5).cost(1000, 500, 100, 200) == pytest.approx((2000 + 4000 + 250 + 100) / 1e6)
    assert Price(2, 8).cost(1000, 500, 100, 200) == pytest.approx((2000 + 4000 + 200 + 400) / 1e6)


@given(prices, counts, counts, counts, counts, st.integers(min_value=0, max_value=1000))
def test_cost_is_linear_in_tokens_and_never_negative(
    price: Price, input_: int, output: int, write_: int, read: int, k: int
) -> None:
    one = price.cost(input_, output, write_, read)
    assert one >= 0
    assert price.cost(k * input_, k * output, k * write_, k * read) == pytest.approx(
        k * one, rel=1e-9, abs=1e-9
    )
    parts = (
        price.cost(input_, 0) + price.cost(0, output) + price.cost(0, 0, write_) + price.cost(0, 0, 0, read)
    )
    assert one == pytest.approx(parts, rel=1e-9, abs=1e-9)


@pytest.mark.parametrize(
    ("text", "told"),
    [
        (None, "cannot read the price file"),
        ("m: {input: 1, output: [2\n", "not a YAML or JSON price file (line"),
        ("just text\n", "give `model: {input"),
        ("m: {input: -1, output: 2}\n", "m.input: -1 is not a non-negative number"),
        ("m: {input: 1, output: cheap}\n", "m.output: 'cheap' is not a non-negative number"),
        ("m: {input: 1, output: .nan}\n", "m.output: nan is not a non-negative number"),
        ("m: {input: true, output: 1}\n", "m.input: True is not a non-negative number"),
        ("m: {input: 1, output: 2, cached: 1}\n", "m.cached: unknown field (known: input, output,"),
        ("m: {input: 1}\n", "m.output: missing"),
        ("m: 3\n", "m: give {input"),
    ],
)
def test_a_bad_price_file_is_one_line_naming_the_file_and_field(
    tmp_path: Path, text: str | None, told: str
) -> None:
    path = tmp_path / "prices.yaml" if text is None else write(tmp_path, text)
    with pytest.raises(DataError) as error:
        read_prices(path)
    message = str(error.value)
    assert message.startswith(f"{path}: ") and told in message and "\n" not in message


@pytest.mark.parametrize("command", ["report", "estimate"])
def test_both_commands_refuse_it_in_one_line_without_a_traceback(tmp_path: Path, command: str) -> None:
    """The report reads its prices before any log; the estimate shares the reader."""
    path = write(tmp_path, "m: {input: 1, output: -2}\n")
    given = {
        "report": ["report", str(tmp_path), "--out", str(tmp_path / "out")],
        "estimate": ["estimate", "task1_judge"],
    }
    result = CliRunner().invoke(uxbench, [*given[command], "--prices", str(path)])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert result.output.strip().splitlines() == [
        f"Error: {path}: m.output: -2 is not a non-negative number of $/M tokens"
    ]
