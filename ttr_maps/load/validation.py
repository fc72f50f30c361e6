"""Validate parsed data against a model and turn pydantic's errors into positioned diagnostics.

Validation is strict and goes through JSON (`model_validate_json(strict=True)`),
so the loader accepts exactly what the committed JSON Schema describes: `"3"` is
not a number and `yes` is not a boolean, in YAML as in JSON.
"""

from __future__ import annotations

import difflib
import json
import re
import types
import typing
import unicodedata
from typing import Any

from pydantic import BaseModel, ValidationError

from ..diagnostics import Diagnostic, Severity, did_you_mean
from .source import MAX_PROBLEMS, PathT, Source, _clip

ID_PATTERN = r"^[a-z0-9][a-z0-9-]*$"
COLOR_PATTERN = r"^[a-z][a-z0-9-]*$"

_TYPE_NAMES = {
    "string": "text",
    "int": "a whole number",
    "float": "a number",
    "bool": "true or false",
    "dict": "a mapping (key: value)",
    "model": "a mapping (key: value)",
    "model_attributes": "a mapping (key: value)",
    "tuple": "a list",
    "list": "a list",
    "none_required": "null",
}


def validate(src: Source, model: type[BaseModel], out: list[Diagnostic]) -> BaseModel | None:
    """The model built from `src.data`, or None after adding a diagnostic for every problem."""
    payload = json.dumps(_whole_numbers(src.data), ensure_ascii=False, allow_nan=False)
    try:
        return model.model_validate_json(payload, strict=True)
    except ValidationError as exc:
        errors = [e for e in exc.errors(include_url=False) if not _spurious(e)]
        misspelt = _misspelt_keys(model, errors)
        taken = {(d.line, d.col) for d in out if d.path == src.path and d.severity is Severity.ERROR}
        seen: set[tuple[int, int, str, str]] = set()
        for err in errors:
            if err["type"] == "missing" and tuple(err["loc"]) in misspelt:
                continue  # the unknown key's "did you mean" says it
            if src.full:
                src.omitted += 1
                continue
            d = _diagnostic(src, model, err)
            ident = (d.line, d.col, d.code, d.message)
            if (d.line, d.col) in taken or ident in seen:
                continue
            seen.add(ident)
            src.report(out, d)
        return None


def _whole_numbers(data: Any) -> Any:
    """`2.0` as `2`: JSON Schema counts it as an integer, so the loader does too (float fields take either)."""
    if isinstance(data, float) and data.is_integer() and abs(data) < 2**53:
        return int(data)
    if isinstance(data, list):
        return [_whole_numbers(v) for v in data]
    if isinstance(data, dict):
        return {k: _whole_numbers(v) for k, v in data.items()}
    return data


def _misspelt_keys(model: type[BaseModel], errors: list[Any]) -> set[tuple[Any, ...]]:
    """Locations of missing keys that an unknown key next to them is a misspelling of."""
    out: set[tuple[Any, ...]] = set()
    for err in errors[:MAX_PROBLEMS]:
        if err["type"] == "extra_forbidden":
            loc = tuple(err["loc"])
            match = difflib.get_close_matches(str(loc[-1]).lower(), _allowed_keys(model, loc[:-1]), n=1, cutoff=0.6)
            if match:
                out.add(loc[:-1] + (match[0],))
    return out


def _spurious(err: Any) -> bool:
    """pydantic counts a tuple's length after validating its items, so one bad item also reads as
    "too short"; that echo is dropped when the list as written is long enough."""
    if err["type"] != "too_short":
        return False
    written = err.get("input")
    return isinstance(written, list) and len(written) >= (err.get("ctx") or {}).get("min_length", 0)


def _diagnostic(src: Source, model: type[BaseModel], err: Any) -> Diagnostic:
    path, is_key = _data_path(src.data, err["loc"])
    kind: str = err["type"]
    ctx: dict[str, Any] = err.get("ctx") or {}
    value = _value_at(src.data, path, err.get("input"))
    where = _where(path)
    if is_key:
        parent = _where(path[:-1]) or "the file"
        key = _clip(str(path[-1]))
        if kind == "int_parsing_size":
            return src.diag(path, "S007", f"key '{key}' in {parent}: the number is far too large; write a small whole number", key=True)
        if kind.endswith("_type") or kind.endswith("_parsing"):
            expected = _TYPE_NAMES.get(kind.removesuffix("_type").removesuffix("_parsing"), "another kind of key")
            return src.diag(path, "S007", f"key '{key}' in {parent}: expected {expected} as the key", key=True)
        return src.diag(path, "S007", f"key '{key}' in {parent}: {_constraint(kind, ctx, key, err['msg'])}", key=True)
    if kind == "extra_forbidden":
        allowed = _allowed_keys(model, err["loc"][:-1])
        parent = _where(path[:-1])
        hint = f"; allowed keys{' in ' + parent if parent else ''}: {', '.join(allowed)}" if allowed else "; remove it"
        return src.diag(path, "S005", f"unknown key '{path[-1]}'{did_you_mean(str(path[-1]), allowed)}{hint}", key=True)
    if kind == "missing":
        parent = _where(path[:-1])
        if isinstance(path[-1], int):
            return src.diag(path[:-1], "S007", f"{parent} has too few items (item {path[-1] + 1} is missing)")
        described = _description(model, err["loc"])
        text = f"missing key '{path[-1]}'{' in ' + parent if parent else ''}; add it"
        return src.diag(path[:-1], "S006", text + (f" ({described})" if described else ""))
    if kind == "literal_error":
        choices = re.findall(r"'([^']*)'", ctx.get("expected", ""))
        return src.diag(path, "S007", f"{where}: '{value}' is not allowed{did_you_mean(str(value), choices)}; use {ctx.get('expected', 'one of the listed values')}")
    if kind.endswith("_type") or kind.endswith("_parsing") or kind in ("int_from_float", "none_required"):
        return src.diag(path, "S008", f"{where}: {_wrong_type(kind, value)}")
    if kind == "value_error":
        return src.diag(path, "S007", f"{where + ': ' if where else ''}{err['msg'].removeprefix('Value error, ')}")
    return src.diag(path, "S007", f"{where}: {_constraint(kind, ctx, value, err['msg'])}")


def _constraint(kind: str, ctx: dict[str, Any], value: Any, msg: str) -> str:
    """A user-facing sentence for a broken constraint, saying what to write instead."""
    if kind == "string_pattern_mismatch":
        pattern = ctx.get("pattern", "")
        if pattern == ID_PATTERN:
            return f"'{value}' is not a valid id; use lower-case letters a-z, digits and hyphens{_suggest(value, ID_PATTERN)}"
        if pattern == COLOR_PATTERN:
            return f"'{value}' is not a valid colour name; use lower-case letters, digits and hyphens, starting with a letter{_suggest(value, COLOR_PATTERN)}"
        return f"'{value}' does not match the pattern {pattern}"
    if kind == "less_than_equal":
        return f"{value} is too large; use at most {_num(ctx['le'])}"
    if kind == "less_than":
        return f"{value} is too large; use less than {_num(ctx['lt'])}"
    if kind == "greater_than_equal":
        return f"{value} is too small; use at least {_num(ctx['ge'])}"
    if kind == "greater_than":
        return f"{value} is too small; use more than {_num(ctx['gt'])}"
    if kind == "too_short":
        return f"has {ctx.get('actual_length')} item(s); give at least {ctx.get('min_length')}"
    if kind == "too_long":
        return f"has {ctx.get('actual_length')} items; give at most {ctx.get('max_length')}"
    if kind == "string_too_short":
        return "must not be empty; write some text"
    if kind == "string_too_long":
        return f"is {len(str(value))} characters long; shorten it to at most {ctx.get('max_length')}"
    if kind == "finite_number":
        return "must be a finite number"
    return msg


def _suggest(value: Any, pattern: str) -> str:
    """A valid spelling of `value` (`New York` -> `new-york`), when one exists without dropping letters."""
    text = unicodedata.normalize("NFKD", str(value)).encode("ascii", "ignore").decode().lower()
    if sum(c.isalnum() for c in text) != sum(c.isalnum() for c in str(value)):
        return ""
    slug = re.sub(r"[^a-z0-9]+", "-", text).strip("-")
    return f", e.g. '{slug}'" if slug and re.match(pattern, slug) else ""


def _num(x: Any) -> Any:
    return int(x) if isinstance(x, float) and x.is_integer() else x


def _wrong_type(kind: str, value: Any) -> str:
    base = kind.removesuffix("_type").removesuffix("_parsing")
    if kind == "int_from_float":
        return f"{value} is not a whole number; write one without a fraction"
    expected = _TYPE_NAMES.get(base, _TYPE_NAMES.get(kind, base))
    got = _shown(value)
    hint = ""
    if base == "string" and isinstance(value, (int, float, bool)):
        hint = f"; put it in quotes: '{json.dumps(value)}'"
    elif base in ("int", "float") and isinstance(value, str) and re.fullmatch(r"-?[0-9]+(\.[0-9]+)?", value.strip()):
        hint = "; remove the quotes"
    elif base == "bool" and isinstance(value, str):
        hint = "; write true or false"
    elif base in ("tuple", "list") and not isinstance(value, (list, dict)):
        hint = f"; write it as a list, e.g. [{json.dumps(value)}]"
    return f"expected {expected}, got {got}{hint}"


def _shown(value: Any) -> str:
    if value is None:
        return "nothing (null)"
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, (int, float)):
        return f"the number {value}"
    if isinstance(value, str):
        return f"the text '{value}'"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return type(value).__name__


def _data_path(data: Any, loc: tuple[Any, ...]) -> tuple[PathT, bool]:
    """Map a pydantic location onto the data's own keys (int keys, aliases); True when it names a dict key."""
    path: list[Any] = []
    current = data
    for part in loc:
        if part == "[key]":
            return tuple(path), True
        if isinstance(part, str) and ("[" in part or part.startswith("function-")):
            continue  # pydantic's markers for validators and union members
        if isinstance(current, dict):
            key = part if part in current else next((k for k in current if str(k) == str(part)), part)
            path.append(key)
            current = current.get(key)
        elif isinstance(current, list) and isinstance(part, int) and 0 <= part < len(current):
            path.append(part)
            current = current[part]
        else:
            path.append(part)
            current = None
    return tuple(path), False


def _value_at(data: Any, path: PathT, default: Any) -> Any:
    """The value as the user wrote it (`1.0`, not the `1` validation saw)."""
    for part in path:
        if isinstance(data, dict) and part in data:
            data = data[part]
        elif isinstance(data, list) and isinstance(part, int) and 0 <= part < len(data):
            data = data[part]
        else:
            return default
    return data


def _where(path: PathT) -> str:
    return "".join(f"[{p}]" if isinstance(p, int) and i else f".{p}" for i, p in enumerate(path)).lstrip(".")


def _unwrap(annotation: Any) -> Any:
    while True:
        origin = typing.get_origin(annotation)
        if origin is typing.Annotated:
            annotation = typing.get_args(annotation)[0]
        elif origin in (typing.Union, types.UnionType):
            args = [a for a in typing.get_args(annotation) if a is not type(None)]
            if len(args) != 1:
                return annotation
            annotation = args[0]
        else:
            return annotation


def _is_model(annotation: Any) -> bool:
    return isinstance(annotation, type) and issubclass(annotation, BaseModel)


def _field(model: type[BaseModel], key: Any) -> Any:
    for name, f in model.model_fields.items():
        if key in (name, f.alias):
            return f
    return None


def _annotation_at(model: type[BaseModel], loc: tuple[Any, ...]) -> Any:
    """The type the format expects at a pydantic location, or None when it cannot tell."""
    annotation: Any = model
    for part in loc:
        annotation = _unwrap(annotation)
        if isinstance(part, str) and ("[" in part or part.startswith("function-")):
            continue
        if _is_model(annotation):
            f = _field(annotation, part)
            if f is None:
                return None
            annotation = f.annotation
            continue
        origin, args = typing.get_origin(annotation), typing.get_args(annotation)
        if origin is dict and len(args) == 2:
            annotation = args[1]
        elif origin is tuple and len(args) == 2 and args[1] is Ellipsis:
            annotation = args[0]
        elif origin is tuple and isinstance(part, int) and part < len(args):
            annotation = args[part]
        elif origin is list and args:
            annotation = args[0]
        else:
            return None
    return _unwrap(annotation)


def _allowed_keys(model: type[BaseModel], loc: tuple[Any, ...]) -> list[str]:
    annotation = _annotation_at(model, loc)
    if not _is_model(annotation):
        return []
    return [f.alias or name for name, f in annotation.model_fields.items()]


def _description(model: type[BaseModel], loc: tuple[Any, ...]) -> str:
    parent = _annotation_at(model, loc[:-1])
    if not _is_model(parent):
        return ""
    f = _field(parent, loc[-1])
    return (f.description or "").rstrip(".") if f is not None else ""
