"""A class list into accounts and teams: `server import-class class.csv`.

The CSV has the columns login, name, email, team (a header row first). Every row is checked
before anything is written, and everything is written in one transaction: a bad row is
reported with its line number and nothing from the file is applied. Importing the same file
again (or a corrected one) updates names, emails and teams; it never makes a second account.
An account that already set its own password is updated only if a class list of this contest
made it (its `Enrolment`): one made by signing up under a student's login is refused, and so
is a team of that name made by signing up, or whoever guessed the login (or the team's name)
first would get the student's team.

A new account has no password: its owner sets one through a one-time sign-up link (Django's
password-reset token, which stops working once the password is set or the account logs in).
The links are returned for the organiser to send; with an email backend configured, `send`
mails them.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.tokens import default_token_generator
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import ValidationError
from django.core.validators import validate_email, validate_slug
from django.db import transaction
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from tournaments.server.contests.models import Enrolment, Participant

COLUMNS = ["login", "name", "email", "team"]


class ClassListError(ValueError):
    """A class list that cannot be imported; nothing of it was applied."""


@dataclass
class Student:
    line: int
    login: str
    name: str
    email: str
    team: str


@dataclass
class ImportResult:
    created: list[str]
    updated: list[str]
    teams_created: list[str]
    links: dict[str, str]  # login -> one-time sign-up link (accounts with no password yet)


def read(path: Path) -> list[Student]:
    """The rows of a class list, each checked; ClassListError names the first bad line."""
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise ClassListError(f"cannot read {path}: {exc}") from None
    rows = csv.reader(io.StringIO(text))
    header = [h.strip().lower() for h in next(rows, [])]
    if header != COLUMNS:
        raise ClassListError(
            f"{path}: line 1 must be the header {','.join(COLUMNS)}, "
            f"not {','.join(header) or '(empty)'}"
        )
    students: list[Student] = []
    seen: dict[str, int] = {}
    for number, row in enumerate(rows, start=2):
        if not any(cell.strip() for cell in row):
            continue
        where = f"{path}: line {number}"
        if len(row) != len(COLUMNS):
            raise ClassListError(
                f"{where}: {len(row)} columns, expected {len(COLUMNS)} ({','.join(COLUMNS)})"
            )
        login, name, email, team = (cell.strip() for cell in row)
        try:
            UnicodeUsernameValidator()(login)
        except ValidationError:
            raise ClassListError(
                f"{where}: login {login!r} must be letters, digits and @ . + - _"
            ) from None
        try:
            validate_email(email)
        except ValidationError:
            raise ClassListError(f"{where}: {email!r} is not an email address") from None
        try:
            validate_slug(team)
        except ValidationError:
            raise ClassListError(
                f"{where}: team {team!r} must be letters, digits, - and _ "
                f"(it is its name on the leaderboard)"
            ) from None
        if login in seen:
            raise ClassListError(f"{where}: login {login!r} is already on line {seen[login]}")
        seen[login] = number
        students.append(Student(number, login, name, email, team))
    if not students:
        raise ClassListError(f"{path}: no students after the header")
    return students


def signup_link(user: Any, base_url: str) -> str:
    uid = urlsafe_base64_encode(force_bytes(user.pk))
    token = default_token_generator.make_token(user)
    return f"{base_url.rstrip('/')}/welcome/{uid}/{token}/"


def apply(students: list[Student], contest: Any, base_url: str) -> ImportResult:
    """Create or update the accounts and teams of `students` in `contest`, all or nothing."""
    User = get_user_model()
    result = ImportResult([], [], [], {})
    with transaction.atomic():
        for s in students:
            team = Participant.objects.filter(name=s.team).first()
            if team is not None and team.contest_id != contest.pk:
                raise ClassListError(
                    f"line {s.line}: team name {s.team!r} is taken in another "
                    f"contest; choose another"
                )
            if team is not None and team.staff_bot:
                raise ClassListError(f"line {s.line}: {s.team!r} is a staff bot, not a team")
            if team is not None and team.members.exclude(enrolments__contest=contest).exists():
                raise ClassListError(
                    f"line {s.line}: team {s.team!r} exists already with members who signed up "
                    f"on their own, not from the class list; choose another team name (or "
                    f"enrol those members in the admin, if they are students of it)"
                )
            if team is None:
                team = Participant.objects.create(name=s.team, contest=contest)
                result.teams_created.append(s.team)
            first, _, last = s.name.partition(" ")
            user = User.objects.filter(username=s.login).first()
            if user is None:
                user = User(username=s.login)
                user.set_unusable_password()
                result.created.append(s.login)
            else:
                if user.is_staff:
                    raise ClassListError(
                        f"line {s.line}: {s.login!r} is an organiser's account, not a student's"
                    )
                if user.has_usable_password() and not user.enrolments.filter(contest=contest):
                    raise ClassListError(_unvouched(s))
                result.updated.append(s.login)
            user.first_name, user.last_name, user.email = first[:150], last[:150], s.email
            user.save()
            # One team per student in this contest: a moved student leaves the old one.
            for old in user.participants.filter(contest=contest).exclude(pk=team.pk):
                old.members.remove(user)
            team.members.add(user)
            Enrolment.objects.get_or_create(contest=contest, user=user)
            if not user.has_usable_password():
                result.links[s.login] = signup_link(user, base_url)
    return result


def _unvouched(s: Student) -> str:
    """Why a class list cannot take over an account that set its own password: anyone could
    have signed up under a student's login before the import (logins are easy to guess), and
    the import would hand that account the student's team, its code and its logs."""
    return (
        f"line {s.line}: an account {s.login!r} already exists with a password of its own and "
        f"was not made by this contest's class list: the import cannot tell that it is the "
        f"student's (anyone can sign up under a login before it is imported). If it is (say, "
        f"from another contest), enrol it in this contest in the admin (Enrolments); if not, "
        f"rename or delete it there; then import again"
    )


def write_links(result: ImportResult, students: list[Student], path: Path) -> None:
    """login,email,link for every account still without a password: the file to send."""
    emails = {s.login: s.email for s in students}
    with path.open("w", newline="") as out:
        writer = csv.writer(out, lineterminator="\n")  # a text file, as the class list
        writer.writerow(["login", "email", "link"])
        for login, link in sorted(result.links.items()):
            writer.writerow([login, emails.get(login, ""), link])
    path.chmod(0o600)  # the links let whoever has them set the accounts' passwords


def send(result: ImportResult, students: list[Student], contest_name: str) -> int:
    """Mail each link through Django's configured email backend; the number sent."""
    from django.core.mail import send_mail

    emails = {s.login: s.email for s in students}
    sent = 0
    for login, link in sorted(result.links.items()):
        sent += send_mail(
            f"Your account for {contest_name}",
            f"Your login is {login}. Set your password here (the link works once): {link}",
            None,
            [emails[login]],
        )
    return sent
