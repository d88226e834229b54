"""The rules engine for the Azul family: rules only, no I/O, no protobuf, no clocks."""
