"""The alarm a session sets every move: it goes off once at the time last set, never when
cleared, and keeps one timer handle while it is set again for later."""

from __future__ import annotations

import asyncio
from typing import Any

from referee.alarm import Alarm


def test_the_alarm_goes_off_at_the_time_last_set_and_never_when_cleared() -> None:
    async def go() -> None:
        loop = asyncio.get_running_loop()
        alarm = Alarm(loop)
        fired: list[tuple[str, float]] = []
        made = 0
        real = loop.call_at

        def call_at(when: float, *args: Any, **kwargs: Any) -> asyncio.TimerHandle:
            nonlocal made
            made += 1
            return real(when, *args, **kwargs)

        loop.call_at = call_at  # type: ignore[method-assign,assignment]
        try:
            start = loop.time()
            alarm.set(start + 0.02, lambda: fired.append(("first", loop.time())))
            for step in range(1, 6):  # set again for later, as every move does
                alarm.clear()
                alarm.set(start + 0.02 + step * 0.01, lambda: fired.append(("last", loop.time())))
            assert made == 1, "setting it for later made a new timer each time"
            await asyncio.sleep(0.12)
            assert [name for name, _ in fired] == ["last"]
            assert fired[0][1] >= start + 0.07, "it went off before its time"

            alarm.set(loop.time() + 0.02, lambda: fired.append(("cleared", loop.time())))
            alarm.clear()
            await asyncio.sleep(0.05)
            assert [name for name, _ in fired] == ["last"], "a cleared alarm went off"

            alarm.set(loop.time() + 1.0, lambda: fired.append(("late", loop.time())))
            soon = loop.time() + 0.02
            alarm.set(soon, lambda: fired.append(("sooner", loop.time())))  # earlier: a new timer
            await asyncio.sleep(0.06)
            assert [name for name, _ in fired] == ["last", "sooner"]
            assert fired[1][1] >= soon
            assert not alarm.is_set
        finally:
            del loop.call_at
        alarm.close()

    asyncio.run(go())
