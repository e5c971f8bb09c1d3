"""Credentials users paste into chat, found by shape: provider key prefixes (OpenAI, Anthropic,
AWS, GitHub, GitLab, Hugging Face, npm, Google, Slack, Stripe), JWTs, private-key blocks, a
password after `password` / `密码`, a high-entropy token after `key` / `token` / `secret` /
`密钥`, and URLs that carry one (`user:pass@`, a secret-named query parameter, a token-like
path segment, a webhook host).
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterator
from urllib.parse import parse_qsl, urlsplit

Span = tuple[int, int, str]

_KEY_SHAPES = re.compile(
    r"(?<![A-Za-z0-9_-])(?:"
    r"sk-(?:proj-|ant-(?:api|admin)\d\d-|svcacct-|None-)?[A-Za-z0-9_-]{20,}"  # OpenAI, Anthropic
    r"|(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}"  # AWS access key ids
    r"|gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{22,}|glpat-[A-Za-z0-9_-]{20,}"  # GitHub, GitLab
    r"|hf_[A-Za-z0-9]{30,}|npm_[A-Za-z0-9]{36}"  # Hugging Face, npm
    r"|AIza[0-9A-Za-z_-]{35}"  # Google API keys
    r"|xox[abposr]-[A-Za-z0-9-]{10,}"  # Slack tokens
    r"|[sr]k_(?:live|test)_[0-9A-Za-z]{16,}"  # Stripe
    r"|eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}"  # JWT: header.payload.signature
    r")(?![A-Za-z0-9_-])"
    r"|-----BEGIN [A-Z ]*PRIVATE KEY-----.*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)",
    re.DOTALL,
)
# a credential's name, as code and config files write it (password, passWord, AppSecret,
# AccessKeySecret, SecretId, api_key, "apiKey", AWS_SECRET_ACCESS_KEY, client_secret, …) or in Chinese
_NAME = re.compile(
    r"(?i:(?:pass(?:word|wd|code|phrase)?(?![a-z])|pwd|secret|token(?!s|iz)|api[_-]?key|access[_-]?key|private[_-]?key"
    r"|credentials?|authorization|auth[_-]?key|bearer)[A-Za-z0-9_.-]*|(?<![a-z0-9])(?:pw|key)(?![a-z0-9]))"
    r"|(?:登录|支付|账户|邮箱|wifi|WiFi)?(?:密码|口令)|密钥|秘钥|令牌|私钥"
)
# the value: after `:` / `=` any value; after `is` / `是` / a space one that is no plain word
_VALUE = re.compile(
    r"[\"'“‘]?\s*(?:(?P<sep>[:=：]|=>)|\s(?i:is|was)\s|\s*(?:是|为)|\s+|(?<=[\u4e00-\u9fff]))\s*(?P<quote>[\"'“‘`])?\s*"
    r"(?:(?i:bearer|basic|token)\s+)?(?P<value>[!-~]{3,200})"
)
_CLOSING = {'"': '"', "'": "'", "“": "”", "‘": "’", "`": "`"}
_URL = re.compile(
    r"(?<![A-Za-z0-9+.-])(?:[A-Za-z][A-Za-z0-9+.-]{1,15}://|www\.)"
    r"[^\s<>\"'，。！？；、（）()【】「」《》\u3000-\u303f\u3400-\u9fff\uff00-\uffef]+",
    re.IGNORECASE,
)
_SECRET_PARAM = re.compile(
    r"(?:(?:access|refresh|id|auth|api|session|client|private|secret|app|x-api|sms|verify|verification)[_-]?)?"
    r"(?:token|secret|key|apikey|passw(?:or)?d|pwd|pass|sig|signature|auth|authorization|session|sessionid|sid|"
    r"credentials?|ticket|otp|code|jwt)",
    re.IGNORECASE,
)
_USER_PASS = re.compile(r"^[^/]*//[^/\s]*@|^[^/@]*:[^/@]*@")  # user:pass@ in any scheme
_PASSWORD_PARAM = re.compile(r"passw(?:or)?d|pwd|pass", re.IGNORECASE)
_WEBHOOKS = re.compile(
    r"hooks\.slack\.com/(?:services|workflows)/|discord(?:app)?\.com/api/webhooks/|api\.telegram\.org/bot"
    r"|outlook\.office\.com/webhook|/webhook/",
    re.IGNORECASE,
)


def entropy(value: str) -> float:
    """Shannon entropy in bits per character."""
    counts = Counter(value)
    return -sum(n / len(value) * math.log2(n / len(value)) for n in counts.values())


def looks_random(value: str, min_length: int = 16) -> bool:
    """A token, not a word or a number: long, mixed letters and digits, and high in entropy."""
    classes = sum(bool(re.search(p, value)) for p in ("[a-z]", "[A-Z]", "[0-9]"))
    return len(value) >= min_length and classes >= 2 and entropy(value) >= 3.0


def keys(text: str) -> Iterator[Span]:
    for match in _KEY_SHAPES.finditer(text):
        yield match.start(), match.end(), "SECRET"


def _strip(value: str) -> str:
    """A value without the sentence punctuation typed after it."""
    return value.rstrip(",.;")


def credentials(text: str) -> Iterator[Span]:
    """The value after a credential's name: any after `:` / `=`; after `is` / `是` one that holds
    a digit, a symbol or a capital after its first letter ("password is wrong" stays), or a
    random-looking one after a bare `key` / `token`."""
    for name in _NAME.finditer(text):
        match = _VALUE.match(text, name.end())
        if match is None:
            continue
        value, quote = match.group("value"), match.group("quote")
        value = value.split(_CLOSING[quote])[0] if quote else _strip(value)
        if text[name.start() - 1 : name.start()] in ("?", "&"):
            value = value.split("&")[0]  # a URL's query parameter ends at the next
        plain = value.isalpha() and value[1:].islower()
        if len(value) < 3 or (match.group("sep") is None and plain):
            continue
        bare = name.group().lower() in ("key", "token", "pw")
        if bare and (match.group("sep") is None or plain) and not looks_random(value):
            continue
        yield match.start("value"), match.start("value") + len(value), "SECRET"


def _secret_url(url: str) -> bool:
    try:
        parts = urlsplit(url if "://" in url else "http://" + url)
        params = parse_qsl(parts.query, keep_blank_values=True) + parse_qsl(parts.fragment)
    except ValueError:
        return False
    if _USER_PASS.search(url) or _WEBHOOKS.search(url):
        return True
    for name, value in params:
        if _SECRET_PARAM.fullmatch(name) and (
            _PASSWORD_PARAM.search(name) and value or len(value) >= 6 and not value.isalpha()
        ):
            return True
    segments = re.split(r"[/;]", parts.path)
    return any(looks_random(part, 20) or re.fullmatch(r"[0-9a-fA-F]{32,}", part) for part in segments)


def urls(text: str) -> Iterator[Span]:
    """URLs that carry a credential; plain URLs stay."""
    for match in _URL.finditer(text):
        url = match.group().rstrip(".,:;!?")
        if _secret_url(url):
            yield match.start(), match.start() + len(url), "URL"
