"""The organisers' operations on versions, as the commands (`server contest staff-bot`) and any
other caller make them: typed arguments, the version made, `ContestError` with a message that
says what was wrong and what to do (`enter_staff_bot`); the staff bots and reference bots'
archives they enter (`add_staff_bot`, `reference_archive`). Django must be set up
(`tournaments.server.setup`)."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

from tournaments.server.contests.models import Contest, Participant
from tournaments.server.contests.services import ContestError, find_contest
from tournaments.server.submissions.intake import SubmissionError, submit
from tournaments.server.submissions.models import Version


def reference_archive(bot: str) -> bytes:
    """A .zip of a bot folder whose bot.py runs reference bot `bot`, with the parameters a
    built-in spec gives it (`expert:net=0`). KeyError: no such bot; ValueError: a parameter
    it does not take."""
    from referee import builtin_bots, parse_builtin

    found = parse_builtin(bot)
    if found is None:
        raise KeyError(f"{bot!r} is no reference bot (they are: {', '.join(builtin_bots())})")
    name, params = found
    module, cls = builtin_bots()[name].split(":")
    # The launcher runs the one Bot subclass a bot.py defines itself; the parameters are whole
    # numbers parse_builtin checked, so they are written as they are.
    given = ", ".join(f"{key}={value}" for key, value in params.items())
    init = ""
    if given:
        init = f"\n\n    def __init__(self) -> None:\n        super().__init__({given})\n"
    source = (
        f"import sdk\nfrom {module} import {cls} as Reference\n\n\n"
        f'class {cls}(Reference):\n    """The reference bot {bot!r}, entered by the '
        f'organisers."""{init}\n\n\nif __name__ == "__main__":\n    sdk.run({cls})\n'
    )
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr(f"{name}/bot.py", source)
    return buf.getvalue()


def add_staff_bot(contest: Contest, name: str, archive: bytes) -> Version:
    """A staff bot of `contest` (a participant marked as such) with a new version from
    `archive`; it is validated like any upload and is a bar of the grading export."""
    who, _ = Participant.objects.get_or_create(
        name=name, defaults={"staff_bot": True, "contest": contest}
    )
    if not who.staff_bot or who.contest_id != contest.pk:
        raise ValueError(
            f"{name!r} is already a participant that is not a staff bot of "
            f"{contest.label}; choose another name"
        )
    return submit(who, [archive])


def enter_staff_bot(
    slug: str, name: str, reference: str | None = None, archive: Path | None = None
) -> Version:
    """Staff bot `name` in the contest `slug` (a bar the grades are measured against): a new
    version of reference bot `reference` (random, greedy, search, mcts) or of the bot in
    `archive` (.zip/.tar.gz), one of the two. The ladder worker validates it as any upload."""
    if (reference is None) == (archive is None):
        raise ContestError("give one of --reference NAME or --archive PATH")
    contest = find_contest(slug)
    try:
        data = reference_archive(reference) if reference is not None else _read(archive)
        version = add_staff_bot(contest, name, data)
    except (KeyError, OSError, ValueError, SubmissionError) as exc:
        raise ContestError(f"cannot enter {name}: {exc}") from None
    return version


def _read(archive: Path | None) -> bytes:
    assert archive is not None  # enter_staff_bot checked it
    return archive.read_bytes()
