"""The environment variables a pydantic-settings class reads: each field is one, named by the class's
`env_prefix` and the field's name (`SettingsConfigDict(env_prefix="APP_")` and `port: int = 8000` read
`APP_PORT`), or by the alias the field gives. None of these names is written whole in the code, so the
literal `os.getenv` reads alone never showed them."""

from __future__ import annotations

import ast

from generator.repo.facts.declared import EnvRead, PyField
from generator.repo.facts.pysource import dotted_name

# a field's own name for its variable: pydantic-settings 2's `validation_alias` / `alias`, pydantic 1's `env`
_ALIASES = ("validation_alias", "alias", "env")


def settings_env(node: ast.ClassDef, fields: list[PyField]) -> tuple[EnvRead, ...]:
    """Each field's variable with its default, at the field's line. pydantic-settings matches names
    case-insensitively unless told otherwise; the name is shown upper-cased, as a shell sets it."""
    prefix, sensitive = _config(node)
    aliases = _aliases(node)
    found = []
    for declared in fields:
        if declared.name == "model_config":
            continue  # pydantic's own settings, annotated or not, are no field
        alias = aliases.get(declared.name)
        name = alias or f"{prefix}{declared.name}"
        found.append(EnvRead(name if sensitive or alias else name.upper(), declared.default, declared.line))
    return tuple(found)


def _config(node: ast.ClassDef) -> tuple[str, bool]:
    """The class's `env_prefix` and `case_sensitive`: from `model_config = SettingsConfigDict(…)` (or a dict)
    in pydantic-settings 2, or a nested `class Config:` in pydantic 1."""
    settings: dict[str, ast.expr] = {}
    for item in node.body:
        if isinstance(item, ast.ClassDef) and item.name == "Config":
            settings.update(_assigned(item.body))
        value = _assigned([item]).get("model_config")
        if isinstance(value, ast.Call):
            settings.update({k.arg: k.value for k in value.keywords if k.arg})
        elif isinstance(value, ast.Dict):
            pairs = zip(value.keys, value.values, strict=True)
            settings.update({key: v for k, v in pairs if (key := _text(k)) is not None})
    sensitive = settings.get("case_sensitive")
    return _text(settings.get("env_prefix")) or "", isinstance(
        sensitive, ast.Constant
    ) and sensitive.value is True


def _assigned(body: list[ast.stmt]) -> dict[str, ast.expr]:
    found: dict[str, ast.expr] = {}
    for item in body:
        if isinstance(item, ast.Assign) and len(item.targets) == 1 and isinstance(item.targets[0], ast.Name):
            found[item.targets[0].id] = item.value
        elif isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name) and item.value is not None:
            found[item.target.id] = item.value
    return found


def _aliases(node: ast.ClassDef) -> dict[str, str]:
    """The fields that name their own variable with a literal: `Field(validation_alias="REDIS_URL")`."""
    found = {}
    for item in node.body:
        if not (isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name)):
            continue
        if isinstance(item.value, ast.Call) and dotted_name(item.value.func) == "Field":
            for keyword in item.value.keywords:
                if keyword.arg in _ALIASES and (alias := _text(keyword.value)) is not None:
                    found[item.target.id] = alias
                    break
    return found


def _text(node: ast.expr | None) -> str | None:
    """A string literal's value."""
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None
