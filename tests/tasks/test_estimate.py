"""`uxbench estimate`: calls and tokens per role on the bundled sample data, priced by a file."""

import json
from pathlib import Path

from click.testing import CliRunner

from uxbench.cli import uxbench


def run(*args: str) -> dict:
    result = CliRunner().invoke(uxbench, ["estimate", *args, "--data", "sample", "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_calls_tokens_and_cost_per_role(tmp_path: Path) -> None:
    prices = tmp_path / "prices.yaml"
    prices.write_text("m: {input: 2.0, output: 8.0}\ng: {input: 1.0, output: 4.0}\n", encoding="utf-8")
    found = run(
        "task2_eval", "--model", "m", "--grader", "g", "--prices", str(prices), "--reply-tokens", "100"
    )
    records = found["records"]
    assert found["model"]["calls"] == found["grader"]["calls"] == records > 0
    assert (
        found["model"]["output_tokens"] == 100 * records and found["grader"]["output_tokens"] == 4 * records
    )
    model = found["model"]
    assert model["cost"] == (model["input_tokens"] * 2.0 + model["output_tokens"] * 8.0) / 1e6
    # the grader reads the conversation, the grading prompt and the reply: more than the model's input
    assert found["grader"]["input_tokens"] > model["input_tokens"] + 100 * records


def test_task3_baseline_doubles_the_gradings_and_no_prices_no_cost() -> None:
    plain, both = run("task3_recovery"), run("task3_recovery", "--baseline")
    assert both["grader"]["calls"] == 2 * plain["grader"]["calls"] and plain["grader"]["cost"] is None


def test_a_price_file_without_the_model_is_one_line(tmp_path: Path) -> None:
    prices = tmp_path / "prices.yaml"
    prices.write_text("other: {input: 1, output: 1}\n", encoding="utf-8")
    result = CliRunner().invoke(uxbench, ["estimate", "task1_judge", "--data", "sample", "--model", "m",
                                          "--prices", str(prices)])  # fmt: skip
    assert result.exit_code != 0 and "no price for m" in result.output
