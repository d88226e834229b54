"""The protocol reference as Markdown, read from proto/ by protoc itself: each file's services,
messages and enums in the order the file declares them, with their comments, fields and values.

protoc (grpcio-tools) writes the contract's descriptor set with its source info, which holds
every comment where the .proto has it: nothing here parses the .proto text.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path

from google.protobuf.descriptor_pb2 import (
    DescriptorProto,
    EnumDescriptorProto,
    FieldDescriptorProto,
    FileDescriptorProto,
    FileDescriptorSet,
    ServiceDescriptorProto,
    SourceCodeInfo,
)
from markdown_text import code, definition, prose

# The field numbers of descriptor.proto that a source location's path is made of.
_MESSAGE, _ENUM, _SERVICE, _SYNTAX = 4, 5, 6, 12  # of a file
_FIELD, _NESTED, _NESTED_ENUM, _ONEOF = 2, 3, 4, 8  # of a message
_VALUE = _METHOD = 2  # of an enum, of a service

Where = tuple[int, ...]  # a source location's path
Definition = DescriptorProto | EnumDescriptorProto | ServiceDescriptorProto
Locations = dict[Where, SourceCodeInfo.Location]


def descriptor_set() -> FileDescriptorSet:
    """The contract's files as protoc reads them, comments included."""
    from referee.protocol.generate import run_protoc

    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "contract.binpb"
        run_protoc(f"--descriptor_set_out={out}", "--include_source_info")
        return FileDescriptorSet.FromString(out.read_bytes())


def _definitions(file: FileDescriptorProto) -> Iterator[tuple[str, Definition, Where]]:
    """Every service, message and enum of `file` with its dotted name and location path, nested
    ones included (map entries too: protoc's own messages for `map<K, V>` fields)."""

    def message(
        name: str, found: DescriptorProto, where: Where
    ) -> Iterator[tuple[str, Definition, Where]]:
        yield name, found, where
        for i, nested in enumerate(found.nested_type):
            yield from message(f"{name}.{nested.name}", nested, (*where, _NESTED, i))
        for i, enum in enumerate(found.enum_type):
            yield f"{name}.{enum.name}", enum, (*where, _NESTED_ENUM, i)

    for i, service in enumerate(file.service):
        yield service.name, service, (_SERVICE, i)
    for i, found in enumerate(file.message_type):
        yield from message(found.name, found, (_MESSAGE, i))
    for i, enum in enumerate(file.enum_type):
        yield enum.name, enum, (_ENUM, i)


def _is_map_entry(found: Definition) -> bool:
    return isinstance(found, DescriptorProto) and found.options.map_entry


def _kind(found: Definition) -> str:
    if isinstance(found, ServiceDescriptorProto):
        return "service"
    return "enum" if isinstance(found, EnumDescriptorProto) else "message"


def _comment(locations: Locations, where: Where, detached: bool = False) -> str:
    """The comments on the element at `where`, as written less the space after `//`;
    `detached`: the blocks above it too, apart from it by a blank line."""
    location = locations.get(where)
    if location is None:
        return ""
    texts = [*location.leading_detached_comments] if detached else []
    texts += [location.leading_comments, location.trailing_comments]
    lines = [line.removeprefix(" ") for text in texts for line in text.splitlines()]
    return "\n".join(lines)


class _Types:
    """The contract's named types: a field's type links to the heading of its definition."""

    def __init__(self, files: FileDescriptorSet) -> None:
        self.anchors: dict[str, str] = {}
        self.maps: dict[str, DescriptorProto] = {}
        for file in files.file:
            for name, found, _ in _definitions(file):
                full = f".{file.package}.{name}"
                if isinstance(found, DescriptorProto) and found.options.map_entry:
                    self.maps[full] = found
                else:  # MyST's anchor of the heading "kind `Outer.Inner`"
                    self.anchors[full] = f"{_kind(found)}-{name.replace('.', '').lower()}"

    def name(self, type_name: str) -> str:
        """A message or enum by its full name, linked to its definition when the contract has it."""
        anchor = self.anchors.get(type_name)
        shown = code(type_name.rsplit(".", 1)[-1] if anchor else type_name.lstrip("."))
        return f"[{shown}](#{anchor})" if anchor else shown

    def of(self, field: FieldDescriptorProto) -> str:
        """A field's type: a scalar's name, `map<K, V>`, or a link to its message or enum."""
        entry = self.maps.get(field.type_name)
        if entry is not None:
            key, value = entry.field
            return f"map\\<{self.of(key)}, {self.of(value)}\\>"
        if field.type_name:
            return self.name(field.type_name)
        return code(FieldDescriptorProto.Type.Name(field.type).removeprefix("TYPE_").lower())


def _field_term(field: FieldDescriptorProto, found: DescriptorProto, types: _Types) -> str:
    said = [code(field.name)]
    if field.proto3_optional:
        said.append("optional")
    elif field.label == FieldDescriptorProto.LABEL_REPEATED and field.type_name not in types.maps:
        said.append("repeated")
    said += [types.of(field), f"= {field.number}"]
    if field.HasField("oneof_index") and not field.proto3_optional:
        said.append(f"(one of {code(found.oneof_decl[field.oneof_index].name)})")
    if field.options.deprecated:
        said.append("(deprecated)")
    return " ".join(said)


def _members(found: Definition, where: Where, locations: Locations, types: _Types) -> list[str]:
    """The definition list of a message's oneofs and fields, an enum's values or a service's
    methods, each with its comment."""
    items = []
    if isinstance(found, DescriptorProto):
        for i, field in enumerate(found.field):
            term = _field_term(field, found, types)
            items.append(definition(term, prose(_comment(locations, (*where, _FIELD, i)))))
        fields_of = {
            f.oneof_index
            for f in found.field
            if not f.proto3_optional and f.HasField("oneof_index")
        }
        for i, oneof in enumerate(found.oneof_decl):
            if i in fields_of:  # a proto3 `optional` is a oneof of its own, not declared
                term = f"{code(oneof.name)} (oneof: one of its fields at most)"
                items.append(definition(term, prose(_comment(locations, (*where, _ONEOF, i)))))
    elif isinstance(found, EnumDescriptorProto):
        for i, value in enumerate(found.value):
            term = f"{code(value.name)} = {value.number}"
            items.append(definition(term, prose(_comment(locations, (*where, _VALUE, i)))))
    else:
        for i, method in enumerate(found.method):
            request = ("stream " if method.client_streaming else "") + types.name(method.input_type)
            answer = ("stream " if method.server_streaming else "") + types.name(method.output_type)
            term = f"{code(method.name)} ({request}) returns ({answer})"
            items.append(definition(term, prose(_comment(locations, (*where, _METHOD, i)))))
    return items


def _file_section(file: FileDescriptorProto, types: _Types) -> list[str]:
    locations = {tuple(location.path): location for location in file.source_code_info.location}
    lines = [f"## {code(file.name)}", ""]
    for paragraph in prose(_comment(locations, (_SYNTAX,), detached=True)):
        lines += [paragraph, ""]
    lines += [f"Package {code(file.package)}.", ""]
    found = [d for d in _definitions(file) if not _is_map_entry(d[1])]
    for name, definition_, where in sorted(found, key=lambda d: list(locations[d[2]].span)):
        lines += [f"### {_kind(definition_)} {code(name)}", ""]
        for paragraph in prose(_comment(locations, where)):
            lines += [paragraph, ""]
        lines += _members(definition_, where, locations, types)
    return lines


def proto_markdown() -> str:
    """The reference of every .proto file of the contract, as Markdown headed at level 2."""
    files = descriptor_set()
    types = _Types(files)
    lines: list[str] = []
    for file in sorted(files.file, key=lambda f: f.name):
        lines += _file_section(file, types)
    return "\n".join(lines) + "\n"
