"""A value checked against a type hint at run time: the TypedDicts, literals, lists and unions
the games' `*_types` modules declare (enough of typing for them, nothing more)."""

from __future__ import annotations

import functools
import types
import typing
from typing import Any, Literal, NotRequired, Required, TypeVar, Union, get_args, get_origin

#: Keys whose literal value says which member of a union of typed dicts a value is.
DISCRIMINANTS = ("kind", "type")


def mismatch(
    value: Any,
    hint: Any,
    path: str = "",
    skip: frozenset[str] = frozenset(),
    bound: dict[Any, Any] | None = None,
) -> str | None:
    """Where and how `value` does not fit `hint`, or None if it does. Keys named in `skip` are
    only checked to be there (a view's ``log``, whose events are checked as they are made);
    `bound` gives the type variables of a generic typed dict their types."""
    if isinstance(hint, TypeVar):
        hint = (bound or {})[hint]
    origin, args = get_origin(hint), get_args(hint)
    if hint is Any or hint is object:
        return None
    if origin in (NotRequired, Required):
        return mismatch(value, args[0], path, skip, bound)
    if hint is None or hint is type(None):
        return None if value is None else f"{path}: {value!r} is not None"
    if origin is Literal:
        if any(value == arg and type(value) is type(arg) for arg in args):
            return None
        return f"{path}: {value!r} is none of {args}"
    if origin in (Union, types.UnionType):
        return _union(value, args, path, skip, bound)
    if hint in (int, str, bool):
        if type(value) is not hint:
            return f"{path}: {value!r} is not a {hint.__name__}"
        return None
    if hint is float:
        return None if type(value) in (float, int) else f"{path}: {value!r} is not a number"
    if typing.is_typeddict(hint):
        return _typed_dict(value, hint, path, skip)
    if origin is list:
        if type(value) is not list:
            return f"{path}: {value!r} is not a list"
        for index, item in enumerate(value):
            wrong = mismatch(item, args[0], f"{path}[{index}]", bound=bound)
            if wrong is not None:
                return wrong
        return None
    if origin is dict:
        if type(value) is not dict:
            return f"{path}: {value!r} is not a dict"
        for key, item in value.items():
            wrong = mismatch(key, args[0], f"{path} key") or mismatch(
                item, args[1], f"{path}.{key}"
            )
            if wrong is not None:
                return wrong
        return None
    raise TypeError(f"{path}: no check for {hint!r}")


def _union(
    value: Any, members: tuple[Any, ...], path: str, skip: frozenset[str], bound: Any
) -> str | None:
    """A union: the member the value's literal ``kind`` or ``type`` names, else any member."""
    if isinstance(value, dict):
        for key in DISCRIMINANTS:
            named = [
                member
                for member in members
                if typing.is_typeddict(member) and value.get(key) in _literals(member, key)
            ]
            if named:
                wrongs = [mismatch(value, member, path, skip, bound) for member in named]
                return None if None in wrongs else wrongs[0]
    wrongs = [mismatch(value, member, path, skip, bound) for member in members]
    return None if None in wrongs else f"{path}: {value!r} fits none of {members} ({wrongs})"


@functools.cache
def _hints(typed_dict: Any, extras: bool) -> dict[str, Any]:
    """A typed dict's hints, read once (`get_type_hints` evaluates every annotation anew: it
    was four fifths of a playout's checking). Callers only read them."""
    return typing.get_type_hints(typed_dict, include_extras=extras)


@functools.cache
def _literals(typed_dict: Any, key: str) -> tuple[Any, ...]:
    hint = _hints(typed_dict, False).get(key)
    return get_args(hint) if get_origin(hint) is Literal else ()


def _typed_dict(value: Any, hint: Any, path: str, skip: frozenset[str]) -> str | None:
    if type(value) is not dict:
        return f"{path}: {value!r} is not a dict ({hint.__name__})"
    hints = _hints(hint, True)
    # (Python 3.11 counts a NotRequired key of a postponed annotation as required: read the hint)
    optional = {
        key
        for key, item in hints.items()
        if key in hint.__optional_keys__ or get_origin(item) is NotRequired
    }
    missing = set(hints) - optional - set(value)
    extra = set(value) - set(hints)
    if missing or extra:
        return f"{path} ({hint.__name__}): missing {sorted(missing)}, extra {sorted(extra)}"
    bound = _bound(hint)
    for key, item in value.items():
        if key in skip:
            continue
        wrong = mismatch(item, hints[key], f"{path}.{key}", bound=bound)
        if wrong is not None:
            return wrong
    return None


@functools.cache
def _bound(typed_dict: Any) -> dict[Any, Any]:
    """The types a typed dict gives the type variables of the generic ones it extends
    (`CratesView`: `SharedView[CratesEvent, Result]`)."""
    bound: dict[Any, Any] = {}
    for base in getattr(typed_dict, "__orig_bases__", ()):
        generic = get_origin(base)
        if generic is not None and hasattr(generic, "__parameters__"):
            bound.update(zip(generic.__parameters__, get_args(base), strict=True))
        if typing.is_typeddict(generic or base):
            bound.update(_bound(generic or base))
    return bound
