"""Files a user names, read so that no file can hang a run, exhaust memory or end in a traceback.

Every path a user gives — data, `-T exclude`, templates and prompts, the pipeline's input and
its `--map`, `--config`, `--unsafe-terms` and audit files, the input's fingerprint — is opened
here, and every problem is one `DataError` line naming the file (docs/scale.md#files-you-name):

- only a regular file is read: a FIFO, a device, a socket or a directory is refused before it is
  opened, and opened with O_NONBLOCK and checked again, so nothing waits on a writer;
- a symlink loop is called one, not "no such file";
- gzip is read transparently, up to MAX_GZIP_RATIO times the compressed size (at least
  MIN_GZIP_CAP bytes), so a small file cannot unpack without end;
- text is UTF-8 (with or without a byte-order mark), or UTF-16/UTF-32 when a byte-order mark
  says so; a mark at the start of a later line (files joined with `cat`) is dropped;
- a file read whole holds at most MAX_FILE_BYTES (after unpacking); a file read by lines has
  lines of at most its caller's cap and at most MAX_BLANK_RUN blank lines in a row and
  MAX_BLANK_LINES in all.
"""

from __future__ import annotations

import codecs
import errno
import gzip
import hashlib
import io
import os
import stat
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path

from uxbench.runtime.errors import DataError

MAX_FILE_BYTES = 16 * 2**20  # a side file read whole: a template, a prompt, a settings or term list
MAX_LINE_CHARS = 2**24  # one line of a file read by lines
MAX_GZIP_RATIO = 100  # JSON text packs 5-20×; blank lines pack ~1,000×
MIN_GZIP_CAP = 2**30
MAX_BLANK_RUN = 100_000
MAX_BLANK_LINES = 10_000_000
BOMS = (  # UTF-32 first: its little-endian mark starts with UTF-16's
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)
_KINDS = (
    (stat.S_ISDIR, "a directory", False),
    (stat.S_ISFIFO, "a named pipe (FIFO)", True),
    (stat.S_ISSOCK, "a socket", True),
    (stat.S_ISCHR, "a character device", True),
    (stat.S_ISBLK, "a block device", True),
)


def where(path: str | os.PathLike[str], what: str | None = None) -> str:
    """How messages name a file: `--map m.yaml`, or the bare path for data files."""
    return f"{what} {path}" if what else str(path)


def _os_error(path: str | os.PathLike[str], what: str | None, error: OSError) -> DataError:
    if error.errno == errno.ELOOP:
        return DataError(
            f"{where(path, what)}: is a symlink loop (its links lead back to themselves), not a file"
        )
    return DataError(f"{where(path, what)}: cannot read ({error.strerror})")


def check_path(path: str | os.PathLike[str], what: str | None = None) -> os.stat_result | None:
    """The path's status (links followed); None when nothing is there; a loop or an unreadable
    directory on the way is a DataError."""
    try:
        return os.stat(path)
    except OSError as error:
        if error.errno in (errno.ENOENT, errno.ENOTDIR):
            return None
        raise _os_error(path, what, error) from None


def _check_regular(path: str | os.PathLike[str], what: str | None, mode: int, hint: str | None) -> None:
    if stat.S_ISREG(mode):
        return
    kind, blocks = next(((k, b) for test, k, b in _KINDS if test(mode)), ("a special file", True))
    wait = " (reading it could wait forever)" if blocks else ""
    raise DataError(
        f"{where(path, what)}: is {kind}, not a regular file{wait}" + (f"; {hint}" if hint else "")
    )


def check_regular(path: str | os.PathLike[str], what: str | None = None, hint: str | None = None) -> None:
    """Refuse anything but an existing regular file (for readers that open the path themselves)."""
    status = check_path(path, what)
    if status is None:
        raise DataError(f"{where(path, what)}: cannot read (No such file or directory)")
    _check_regular(path, what, status.st_mode, hint)


class _Capped(io.RawIOBase):
    """A gzip stream that stops with a DataError past `cap` unpacked bytes."""

    def __init__(self, packed: io.BufferedReader, cap: int, label: str) -> None:
        self._packed = packed
        self._gzip = gzip.GzipFile(fileobj=packed, mode="rb")
        self._gzip.peek(1)  # a broken header shows here
        self._cap, self._label, self._total = cap, label, 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        count = self._gzip.readinto(buffer)
        self._total += count
        if self._total > self._cap:
            raise DataError(
                f"{self._label}: unpacks to more than {self._cap:,} bytes, the cap for a gzip file "
                f"({MAX_GZIP_RATIO}× its packed size, at least {MIN_GZIP_CAP:,}); a gzip bomb?"
            )
        return count

    def close(self) -> None:
        if not self.closed:
            self._gzip.close()
            self._packed.close()
        super().close()


def open_binary(
    path: str | os.PathLike[str], what: str | None = None, *, gunzip: bool = True, hint: str | None = None
) -> io.BufferedReader:
    """The file's bytes (unpacked when it is gzip and `gunzip`), opened only if it is a regular file."""
    check_regular(path, what, hint)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as error:
        raise _os_error(path, what, error) from None
    handle = os.fdopen(fd, "rb")
    status = os.fstat(fd)
    try:
        _check_regular(path, what, status.st_mode, hint)  # swapped for a FIFO since the check
        if not gunzip or handle.peek(2)[:2] != b"\x1f\x8b":
            return handle
        cap = max(MIN_GZIP_CAP, MAX_GZIP_RATIO * status.st_size)
        return io.BufferedReader(_Capped(handle, cap, where(path, what)))
    except (OSError, EOFError, zlib.error) as error:
        handle.close()
        raise DataError(f"{where(path, what)}: not a readable gzip file ({error})") from None
    except DataError:
        handle.close()
        raise


def peek(binary: io.BufferedReader, size: int) -> bytes:
    """The stream's next `size` bytes, left unread; b"" when the stream breaks this early (the
    read that follows reports it, naming the line)."""
    try:
        return binary.peek(size)[:size]
    except (OSError, EOFError, zlib.error):
        return b""


def encoding_of(head: bytes) -> str:
    """The codec a file's first bytes call for: UTF-16/32 by their byte-order mark, else UTF-8."""
    return next((codec for bom, codec in BOMS if head.startswith(bom)), "utf-8-sig")


def open_text(
    path: str | os.PathLike[str],
    what: str | None = None,
    *,
    escape_bad_bytes: bool = False,
    hint: str | None = None,
    newline: str | None = None,
) -> io.TextIOWrapper:
    """A text stream over the file (see the module's rules); `escape_bad_bytes` keeps bytes that
    are not UTF-8 as surrogate escapes (for readers that make one bad line one bad record);
    `newline` as for `open` (CSV readers pass "")."""
    binary = open_binary(path, what, hint=hint)
    encoding = encoding_of(peek(binary, 4))
    errors = "surrogateescape" if escape_bad_bytes and encoding == "utf-8-sig" else "strict"
    return io.TextIOWrapper(binary, encoding=encoding, errors=errors, newline=newline)


def decode_problem(error: UnicodeDecodeError, line: int) -> str:
    return f"not valid {error.encoding.upper()} near line {line} ({error.reason}); save it as UTF-8"


def read_bytes(path: str | os.PathLike[str], what: str | None = None, limit: int | None = None) -> bytes:
    """The whole file (unpacked), at most `limit` bytes (default MAX_FILE_BYTES)."""
    limit = MAX_FILE_BYTES if limit is None else limit
    with open_binary(path, what) as handle:
        try:
            data = handle.read(limit + 1)
        except (OSError, EOFError, zlib.error) as error:
            raise DataError(
                f"{where(path, what)}: the compressed stream is corrupt or truncated ({error})"
            ) from None
    if len(data) > limit:
        raise DataError(f"{where(path, what)}: larger than {limit:,} bytes, the cap for this file")
    return data


def read_text(path: str | os.PathLike[str], what: str | None = None, limit: int | None = None) -> str:
    """The whole file as text, decoded by the module's rules, at most `limit` bytes (as read_bytes)."""
    return decode(read_bytes(path, what, limit), path, what)


def decode(data: bytes, path: str | os.PathLike[str], what: str | None = None) -> str:
    """A file's bytes as text, by the module's rules; a byte that does not decode names its line."""
    try:
        return data.decode(encoding_of(data[:4]))
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise DataError(f"{where(path, what)}: {decode_problem(error, line)}") from None


def lines(path: str | os.PathLike[str], what: str | None = None) -> Iterator[tuple[int, str]]:
    """(line number, text) of the file's non-blank lines; one over MAX_LINE_CHARS is a DataError."""
    for number, line in record_lines(path, what):
        if line is None:
            raise DataError(
                f"{where(path, what)}:{number}: longer than {MAX_LINE_CHARS:,} characters, the line cap"
            )
        yield number, line


def record_lines(
    path: str | os.PathLike[str],
    what: str | None = None,
    *,
    max_chars: int | None = None,
    escape_bad_bytes: bool = False,
    hint: str | None = None,
) -> Iterator[tuple[int, str | None]]:
    """(line number, text) of the file's non-blank lines, for a reader that makes one bad line one
    bad record: a line longer than `max_chars` gives None for its text (the rest of it is read
    and dropped, never held; default cap MAX_LINE_CHARS). A CR, LF or CRLF ends a line."""
    label = where(path, what)
    max_chars = MAX_LINE_CHARS if max_chars is None else max_chars
    with open_text(path, what, escape_bad_bytes=escape_bad_bytes, hint=hint) as text:
        number = run = blank = 0
        while line := _read_line(text, label, number + 1, max_chars):
            number += 1
            if len(line) > max_chars and not line.endswith("\n"):
                while not line.endswith("\n") and (line := _read_line(text, label, number, max_chars)):
                    pass
                run = 0
                yield number, None
                continue
            line = line.removeprefix("\ufeff")  # a byte-order mark where two files were joined
            if line.strip():
                run = 0
                yield number, line
                continue
            run, blank = run + 1, blank + 1
            if run > MAX_BLANK_RUN or blank > MAX_BLANK_LINES:
                many = (
                    f"{MAX_BLANK_RUN:,} blank lines in a row"
                    if run > MAX_BLANK_RUN
                    else f"{MAX_BLANK_LINES:,} blank lines"
                )
                raise DataError(f"{label}: more than {many} (at line {number}); not a line-per-record file?")


def _read_line(text: io.TextIOWrapper, label: str, number: int, max_chars: int) -> str:
    """The next line (at most one character over the cap). Decoders and gunzip work on chunks of
    the file, so their errors are placed near a line."""
    try:
        return text.readline(max_chars + 1)
    except UnicodeDecodeError as error:
        raise DataError(f"{label}: {decode_problem(error, number)}") from None
    except (OSError, EOFError, zlib.error) as error:
        raise DataError(
            f"{label}: the compressed stream is corrupt or truncated near line {number} ({error})"
        ) from None


def file_sha256(path: str | os.PathLike[str], what: str | None = None) -> str:
    """SHA-256 of the file's bytes as stored (not unpacked), read in blocks."""
    digest = hashlib.sha256()
    with open_binary(path, what, gunzip=False) as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def replace_file(path: Path, write: Callable[[Path], object]) -> None:
    """Write a file whole or not at all: `write` fills a file beside `path`, which then moves over it
    (a reader never sees half a log or half an export, and a crash leaves the old file)."""
    temp = path.with_name(f".{path.name}.partial")
    try:
        write(temp)
        os.replace(temp, path)
    finally:
        temp.unlink(missing_ok=True)
