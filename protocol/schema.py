"""A small JSON Schema validator for the subset our schemas use (standard library only).

Supported keywords: type, const, enum, properties, required, additionalProperties (bool
or schema), items, minItems, maxItems, minLength, maxLength, pattern, minimum, maximum,
propertyNames, oneOf, $ref (to ``#/$defs/...``). The test suite checks every schema and
sample against the reference ``jsonschema`` package, so the two agree.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
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


def _is_type(value: Any, name: str) -> bool:
    if isinstance(value, bool) and name in ("integer", "number"):
        return False
    if name == "integer" and isinstance(value, float):
        return value.is_integer()  # JSON Schema: 1.0 is an integer
    return isinstance(value, _TYPES[name])


def validate(value: Any, schema: Mapping[str, Any], root: Mapping[str, Any] | None = None) -> None:
    """Raise ``SchemaViolationError`` at the first place ``value`` breaks ``schema``."""
    _check(value, schema, root or schema, "")


def _check(value: Any, schema: Mapping[str, Any], root: Mapping[str, Any], path: str) -> None:
    if "$ref" in schema:
        ref: str = schema["$ref"]
        target: Any = root
        for part in ref.removeprefix("#/").split("/"):
            target = target[part]
        _check(value, target, root, path)
    kind = schema.get("type")
    if kind is not None:
        kinds = [kind] if isinstance(kind, str) else kind
        if not any(_is_type(value, name) for name in kinds):
            raise SchemaViolationError(path, "type")
    if "const" in schema and (value != schema["const"] or type(value) is not type(schema["const"])):
        raise SchemaViolationError(path, "const")
    if "enum" in schema and value not in schema["enum"]:
        raise SchemaViolationError(path, "enum")
    if "oneOf" in schema:
        matches = 0
        for option in schema["oneOf"]:
            try:
                _check(value, option, root, path)
            except SchemaViolationError:
                continue
            matches += 1
        if matches != 1:
            raise SchemaViolationError(path, "oneOf")
    if isinstance(value, str):
        _check_string(value, schema, path)
    elif isinstance(value, (int, float)) and not isinstance(value, bool):
        if "minimum" in schema and value < schema["minimum"]:
            raise SchemaViolationError(path, "minimum")
        if "maximum" in schema and value > schema["maximum"]:
            raise SchemaViolationError(path, "maximum")
    elif isinstance(value, list):
        _check_array(value, schema, root, path)
    elif isinstance(value, dict):
        _check_object(value, schema, root, path)


def _check_string(value: str, schema: Mapping[str, Any], path: str) -> None:
    if "minLength" in schema and len(value) < schema["minLength"]:
        raise SchemaViolationError(path, "minLength")
    if "maxLength" in schema and len(value) > schema["maxLength"]:
        raise SchemaViolationError(path, "maxLength")
    if "pattern" in schema and not _regex(schema["pattern"]).search(value):
        raise SchemaViolationError(path, "pattern")


def _check_array(
    value: list[Any], schema: Mapping[str, Any], root: Mapping[str, Any], path: str
) -> None:
    if "minItems" in schema and len(value) < schema["minItems"]:
        raise SchemaViolationError(path, "minItems")
    if "maxItems" in schema and len(value) > schema["maxItems"]:
        raise SchemaViolationError(path, "maxItems")
    items = schema.get("items")
    if isinstance(items, Mapping):
        for index, item in enumerate(value):
            _check(item, items, root, f"{path}/{index}")


def _check_object(
    value: dict[str, Any], schema: Mapping[str, Any], root: Mapping[str, Any], path: str
) -> None:
    for name in schema.get("required", ()):
        if name not in value:
            raise SchemaViolationError(f"{path}/{name}", "required")
    properties: Mapping[str, Any] = schema.get("properties", {})
    extra = schema.get("additionalProperties", True)
    names = schema.get("propertyNames")
    for name, item in value.items():
        if names is not None:
            _check(name, names, root, f"{path}/{name}")
        if name in properties:
            _check(item, properties[name], root, f"{path}/{name}")
        elif extra is False:
            raise SchemaViolationError(f"{path}/{name}", "additionalProperties")
        elif isinstance(extra, Mapping):
            _check(item, extra, root, f"{path}/{name}")
