"""A small JSON Schema validator for the subset our schemas use (standard library only).

Supported keywords: type, const, enum, properties, required, additionalProperties (bool
or schema), items, minItems, maxItems, minLength, maxLength, pattern, minimum, maximum,
propertyNames, oneOf, $ref (to ``#/$defs/...``). The test suite checks every schema and
sample against the reference ``jsonschema`` package, so the two agree.

A schema is compiled once into nested checking functions (``compile_schema``): every
intent is checked on the tables service's per-move path, and walking the schema's dicts
for each message cost three times as much.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import Any

_TYPES: dict[str, tuple[type, ...]] = {
    "object": (dict,),
    "array": (list,),
    "string": (str,),
    "integer": (int,),
    "number": (int, float),
    "boolean": (bool,),
    "null": (type(None),),
}


class SchemaViolationError(ValueError):
    """Where a message departs from its schema: a JSON pointer and the keyword."""

    def __init__(self, path: str, keyword: str) -> None:
        super().__init__(f"{path or '/'}: {keyword}")
        self.path = path or "/"
        self.keyword = keyword


@lru_cache(maxsize=256)
def _regex(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern)


Check = Callable[[Any, str], None]
"""``check(value, path)`` raises ``SchemaViolationError`` at the first place it breaks."""


def validate(value: Any, schema: Mapping[str, Any], root: Mapping[str, Any] | None = None) -> None:
    """Raise ``SchemaViolationError`` at the first place ``value`` breaks ``schema``."""
    compile_schema(schema, root)(value, "")


def compile_schema(schema: Mapping[str, Any], root: Mapping[str, Any] | None = None) -> Check:
    """A function checking values against ``schema`` (``root`` holds its ``$defs``)."""
    return _Compiler(root or schema).compile(schema)


def _violation(keyword: str) -> Check:
    def fail(value: Any, path: str) -> None:
        raise SchemaViolationError(path, keyword)

    return fail


def _run_all(checks: list[Check]) -> Check:
    if not checks:
        return lambda value, path: None
    if len(checks) == 1:
        return checks[0]

    def run(value: Any, path: str) -> None:
        for check in checks:
            check(value, path)

    return run


class _Compiler:
    def __init__(self, root: Mapping[str, Any]) -> None:
        self.root = root
        self.refs: dict[str, Check] = {}

    def compile(self, schema: Mapping[str, Any]) -> Check:
        # The same order as the checks were always made: the first violation found wins.
        checks: list[Check] = []
        if "$ref" in schema:
            checks.append(self._ref(schema["$ref"]))
        if "type" in schema:
            checks.append(_type_check(schema["type"]))
        if "const" in schema:
            checks.append(_const_check(schema["const"]))
        if "enum" in schema:
            checks.append(_enum_check(schema["enum"]))
        if "oneOf" in schema:
            options = schema["oneOf"]
            checks.append(
                _one_of([self.compile(option) for option in options], _discriminator(options))
            )
        by_type = self._by_type(schema)
        if by_type is not None:
            checks.append(by_type)
        return _run_all(checks)

    def _ref(self, ref: str) -> Check:
        if ref not in self.refs:
            self.refs[ref] = _violation("$ref")  # a placeholder while a recursive ref compiles
            target: Any = self.root
            for part in ref.removeprefix("#/").split("/"):
                target = target[part]
            self.refs[ref] = self.compile(target)
        refs = self.refs
        return lambda value, path: refs[ref](value, path)

    def _by_type(self, schema: Mapping[str, Any]) -> Check | None:
        string = _string_checks(schema)
        number = _number_checks(schema)
        array = self._array_checks(schema)
        obj = self._object_checks(schema)
        if string is None and number is None and array is None and obj is None:
            return None

        def check(value: Any, path: str) -> None:
            if isinstance(value, str):
                if string is not None:
                    string(value, path)
            elif isinstance(value, (int, float)) and not isinstance(value, bool):
                if number is not None:
                    number(value, path)
            elif isinstance(value, list):
                if array is not None:
                    array(value, path)
            elif isinstance(value, dict) and obj is not None:
                obj(value, path)

        return check

    def _array_checks(self, schema: Mapping[str, Any]) -> Check | None:
        low, high = schema.get("minItems"), schema.get("maxItems")
        items = schema.get("items")
        item = self.compile(items) if isinstance(items, Mapping) else None
        if low is None and high is None and item is None:
            return None

        def check(value: list[Any], path: str) -> None:
            if low is not None and len(value) < low:
                raise SchemaViolationError(path, "minItems")
            if high is not None and len(value) > high:
                raise SchemaViolationError(path, "maxItems")
            if item is not None:
                for index, element in enumerate(value):
                    item(element, f"{path}/{index}")

        return check

    def _object_checks(self, schema: Mapping[str, Any]) -> Check | None:
        required = tuple(schema.get("required", ()))
        properties = {name: self.compile(sub) for name, sub in schema.get("properties", {}).items()}
        extra_schema = schema.get("additionalProperties", True)
        extra_forbidden = extra_schema is False
        extra = self.compile(extra_schema) if isinstance(extra_schema, Mapping) else None
        names_schema = schema.get("propertyNames")
        names = self.compile(names_schema) if names_schema is not None else None
        if not (required or properties or extra_forbidden or extra or names):
            return None

        def check(value: dict[str, Any], path: str) -> None:
            for name in required:
                if name not in value:
                    raise SchemaViolationError(f"{path}/{name}", "required")
            for name, item in value.items():
                if names is not None:
                    names(name, f"{path}/{name}")
                known = properties.get(name)
                if known is not None:
                    known(item, f"{path}/{name}")
                elif extra_forbidden:
                    raise SchemaViolationError(f"{path}/{name}", "additionalProperties")
                elif extra is not None:
                    extra(item, f"{path}/{name}")

        return check


def _type_check(kind: str | list[str]) -> Check:
    kinds = [kind] if isinstance(kind, str) else list(kind)
    plain = tuple(t for name in kinds if name not in ("integer", "number") for t in _TYPES[name])
    number, integer = "number" in kinds, "integer" in kinds

    def check(value: Any, path: str) -> None:
        if isinstance(value, plain):
            return
        if not isinstance(value, bool):  # JSON has no booleans among its numbers
            if number and isinstance(value, (int, float)):
                return
            if integer and isinstance(value, int):
                return
            if integer and isinstance(value, float) and value.is_integer():
                return  # JSON Schema: 1.0 is an integer
        raise SchemaViolationError(path, "type")

    return check


def _const_check(expected: Any) -> Check:
    def check(value: Any, path: str) -> None:
        if value != expected or type(value) is not type(expected):
            raise SchemaViolationError(path, "const")

    return check


def _enum_check(allowed: list[Any]) -> Check:
    def check(value: Any, path: str) -> None:
        if value not in allowed:
            raise SchemaViolationError(path, "enum")

    return check


def _discriminator(options: list[Mapping[str, Any]]) -> tuple[str, list[str]] | None:
    """A property each option gives a ``const`` string of its own (``op`` in an intent).

    An object whose property has one option's value can only match that option: the
    others fail on their ``const``. Only the properties an option names are looked at:
    one that is not ``required`` may be absent, and then no option is chosen up front.
    """
    if not options or not all(isinstance(option.get("properties"), Mapping) for option in options):
        return None
    for name in options[0]["properties"]:
        consts = [option["properties"].get(name, {}).get("const") for option in options]
        if all(isinstance(c, str) for c in consts) and len(set(consts)) == len(consts):
            return name, consts
    return None


def _one_of(options: list[Check], discriminator: tuple[str, list[str]] | None = None) -> Check:
    name, consts = discriminator if discriminator is not None else ("", [])
    chosen: dict[str, Check] = dict(zip(consts, options, strict=True)) if consts else {}

    def check(value: Any, path: str) -> None:
        if chosen and isinstance(value, dict):
            # The option the discriminating property names, if it holds: then no other can.
            key = value.get(name)
            option = chosen.get(key) if isinstance(key, str) else None
            if option is not None:
                try:
                    option(value, path)
                except SchemaViolationError:
                    pass  # the whole check below says which way it fails
                else:
                    return
        matches = 0
        for option in options:
            try:
                option(value, path)
            except SchemaViolationError:
                continue
            matches += 1
        if matches != 1:
            raise SchemaViolationError(path, "oneOf")

    return check


def _string_checks(schema: Mapping[str, Any]) -> Check | None:
    low, high = schema.get("minLength"), schema.get("maxLength")
    pattern = _regex(schema["pattern"]) if "pattern" in schema else None
    if low is None and high is None and pattern is None:
        return None

    def check(value: str, path: str) -> None:
        if low is not None and len(value) < low:
            raise SchemaViolationError(path, "minLength")
        if high is not None and len(value) > high:
            raise SchemaViolationError(path, "maxLength")
        if pattern is not None and not pattern.search(value):
            raise SchemaViolationError(path, "pattern")

    return check


def _number_checks(schema: Mapping[str, Any]) -> Check | None:
    low, high = schema.get("minimum"), schema.get("maximum")
    if low is None and high is None:
        return None

    def check(value: float, path: str) -> None:
        if low is not None and value < low:
            raise SchemaViolationError(path, "minimum")
        if high is not None and value > high:
            raise SchemaViolationError(path, "maximum")

    return check
