"""The CLI's command modules: one per noun, each registering its verbs on the shared groups."""
