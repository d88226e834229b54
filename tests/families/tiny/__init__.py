"""azul-tiny: a toy third game family, a test fixture that plays through the descriptor alone.

`family.py` is its engine and descriptor, `view.py` its view (with `tiny.js`, the viewer's
renderer), `bot.py` an SDK bot. Nothing shared knows it: a test calls `register(TINY)`
(`tests.families.tiny.family.TINY`), and its bot process registers it again on import.
"""
