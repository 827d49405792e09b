"""Errors the store raises, each with a reason code and a message in zh and en.

Pages show `error.message(lang)`; tests and logs use `error.code`. Nothing here carries a raw
traceback to the learner.
"""

from __future__ import annotations

_STORE_MESSAGES: dict[str, dict[str, str]] = {
    "corrupt": {
        "en": "The progress file {path} is damaged or is not a progress database. "
        "It has been left untouched; move it aside to start afresh.",
        "zh": "进度文件 {path} 已损坏或不是进度数据库。文件未被改动；如需重新开始，请先把它移走。",
    },
    "locked": {
        "en": "The progress database is busy (another program holds a lock). Try again in a moment.",
        "zh": "进度数据库正被其他程序占用（已加锁），请稍后再试。",
    },
    "missing-location": {
        "en": "The folder for the progress file cannot be created: {path}.",
        "zh": "无法创建进度文件所在的文件夹：{path}。",
    },
    "unwritable": {
        "en": "The progress file {path} cannot be written (read-only or no permission).",
        "zh": "无法写入进度文件 {path}（只读或没有权限）。",
    },
    "not-a-file": {
        "en": "The progress location {path} is a folder, not a file.",
        "zh": "进度文件位置 {path} 是一个文件夹，而不是文件。",
    },
    "foreign-database": {
        "en": "{path} is a database made by another program; it has been left untouched.",
        "zh": "{path} 是其他程序创建的数据库，未对其做任何改动。",
    },
    "newer-schema": {
        "en": "The progress database was written by a newer version of this app "
        "(schema {found}, this app knows up to {known}). Please update the app.",
        "zh": "进度数据库由更新版本的应用写入（结构版本 {found}，本应用最高支持 {known}）。请更新应用。",
    },
    "unreachable": {
        "en": "The progress database server cannot be reached.",
        "zh": "无法连接进度数据库服务器。",
    },
    "bad-url": {
        "en": "The progress database address is not valid.",
        "zh": "进度数据库地址无效。",
    },
}

_PROFILE_MESSAGES: dict[str, dict[str, str]] = {
    "empty-name": {"en": "A profile needs a name.", "zh": "档案需要一个名称。"},
    "name-too-long": {
        "en": "A profile name has at most {limit} characters.",
        "zh": "档案名称最多 {limit} 个字符。",
    },
    "name-taken": {
        "en": "A profile named “{name}” already exists.",
        "zh": "已存在名为“{name}”的档案。",
    },
    "unknown-profile": {"en": "That profile no longer exists.", "zh": "该档案已不存在。"},
}


def _format(table: dict[str, dict[str, str]], code: str, lang: str, fmt: dict) -> str:
    texts = table[code]
    template = texts.get(lang) or texts["en"]
    try:
        return template.format(**fmt)
    except (KeyError, IndexError):
        return template


class TutorError(Exception):
    """Base: an error with a `code` and a message in each language."""

    _messages: dict[str, dict[str, str]] = {}

    def __init__(self, code: str, detail: str = "", **fmt: object) -> None:
        if code not in self._messages:
            raise ValueError(f"unknown {type(self).__name__} code {code!r}")
        self.code = code
        self.detail = detail
        self.fmt = fmt
        super().__init__(f"{code}: {self.message('en')}" + (f" ({detail})" if detail else ""))

    def message(self, lang: str = "en") -> str:
        return _format(self._messages, self.code, lang, self.fmt)


class StoreUnavailable(TutorError):
    """The database cannot be used: corrupt, locked, missing location, unwritable, too new."""

    _messages = _STORE_MESSAGES


class ProfileError(TutorError):
    """A profile operation was refused (name empty, taken, too long; profile gone)."""

    _messages = _PROFILE_MESSAGES


STORE_ERROR_CODES = tuple(_STORE_MESSAGES)
PROFILE_ERROR_CODES = tuple(_PROFILE_MESSAGES)
