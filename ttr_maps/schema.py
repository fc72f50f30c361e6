"""JSON Schemas generated from the models (committed in `schemas/`)."""

from __future__ import annotations

import json
from pathlib import Path

from pydantic.json_schema import GenerateJsonSchema

from .engine.position_file import PositionFile
from .engine.statefile import StateFile
from .model import Board, Variant
from .model.deck import DeckFile

SCHEMAS = {"board.schema.json": Board, "variant.schema.json": Variant, "deck.schema.json": DeckFile, "state.schema.json": StateFile, "position.schema.json": PositionFile}
ID_BASE = "https://ttr-maps.invalid/schemas/"


class StrictSchema(GenerateJsonSchema):
    """pydantic's schema, as strict as the loader: a mapping whose keys must match a pattern
    (ids, colour names) gets `patternProperties` and, added here, `additionalProperties: false`,
    so a key the loader refuses (`Big Deck:` under `decks`) is refused by the schema too."""

    def dict_schema(self, schema):  # type: ignore[no-untyped-def]
        out = super().dict_schema(schema)
        if "patternProperties" in out and "additionalProperties" not in out:
            out["additionalProperties"] = False
        return out


def schema_text(name: str) -> str:
    """The schema file `name` as text, deterministic (sorted keys, trailing newline)."""
    model = SCHEMAS[name]
    schema = model.model_json_schema(by_alias=True, mode="validation", schema_generator=StrictSchema)
    schema = {"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": ID_BASE + name, **schema}
    return json.dumps(schema, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def all_schema_texts() -> dict[str, str]:
    return {name: schema_text(name) for name in SCHEMAS}


def committed_schema_dir() -> Path:
    from .bundled import schemas_dir

    return schemas_dir()
