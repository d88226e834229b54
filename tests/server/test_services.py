"""The organisers' services of the server's apps, called directly (the commands' tests call them
through the CLI): what each makes, and each refusal's message, with nothing changed by it."""

from __future__ import annotations

import io
from datetime import UTC, datetime, timedelta
from pathlib import Path

from django.contrib.auth import get_user_model
from django.test import TestCase
from django.utils import timezone

from tests.server.helpers import participant
from tournaments.server.contests.models import Contest, Extension
from tournaments.server.contests.services import (
    ContestError,
    ContestSettings,
    about,
    configure_default,
    create_contest,
    find_contest,
    import_class,
)
from tournaments.server.runtime import initialise
from tournaments.server.submissions.services import enter_staff_bot, reference_archive
from tournaments.server.worker.services import (
    FinalNotDone,
    change_contest,
    export_results,
    extend_deadline,
    show_contest,
)


class ContestServiceTests(TestCase):
    def test_a_contest_is_created_a_draft_until_it_opens_and_refusals_name_the_fault(
        self,
    ) -> None:
        opens = datetime(2030, 1, 1, 9, tzinfo=UTC)
        made = create_contest("term-1", ContestSettings(opens=opens, hidden=True, players=3))
        self.assertEqual((made.state, made.visibility, made.name), ("draft", "hidden", "term-1"))
        self.assertEqual(find_contest("term-1").opens, opens)
        for slug, settings, message in [
            ("bad slug", ContestSettings(), "must be letters, digits, - and _"),
            ("term-1", ContestSettings(), "exists already"),
            ("term-2", ContestSettings(ruleset="chess"), "unknown ruleset"),
            ("term-2", ContestSettings(players=5), "is played by 2-4"),
            ("term-2", ContestSettings(signup="invite"), "not one of open, code, closed"),
            ("term-2", ContestSettings(signup="code"), "takes --signup-code"),
            ("term-2", ContestSettings(signup_code="x"), "and only with it"),
        ]:
            with self.subTest(slug=slug, message=message):
                with self.assertRaisesRegex(ContestError, message):
                    create_contest(slug, settings)
        self.assertFalse(Contest.objects.filter(slug="term-2").exists())
        course = create_contest("course", ContestSettings(signup="closed"))
        self.assertEqual((course.signup, about(course)["signup"]), ("closed", "closed"))

    def test_sign_up_is_changed_by_contest_set_and_a_refusal_changes_nothing(self) -> None:
        create_contest("term", ContestSettings())
        change_contest("term", signup="code", signup_code="s3cret")
        self.assertEqual(_signup("term"), ("code", "s3cret"))
        change_contest("term", signup_code="n3w")  # a new code, still by code
        self.assertEqual(_signup("term"), ("code", "n3w"))
        for signup, code, message in [
            ("open", "x", "and only with it"),
            ("invite", None, "not one of open, code, closed"),
            ("code", " s3cret", "no space at either end"),  # the form strips what is typed
            ("code", "x" * 65, "at most 64 characters"),  # nor takes more
        ]:
            with self.subTest(signup=signup):
                with self.assertRaisesRegex(ContestError, message):
                    change_contest("term", signup=signup, signup_code=code)
                self.assertEqual(_signup("term"), ("code", "n3w"))
        with self.assertRaisesRegex(ContestError, "only moves forward"):
            change_contest("term", "draft", signup="closed")  # all or nothing
        self.assertEqual(_signup("term"), ("code", "n3w"))
        change_contest("term", signup="closed")  # the code is dropped with it
        self.assertEqual(_signup("term"), ("closed", ""))
        with self.assertRaisesRegex(ContestError, "takes --signup-code"):
            change_contest("term", signup="code")  # the old code is not brought back
        with self.assertRaisesRegex(ContestError, "and only with it"):
            change_contest("term", signup_code="x")  # a code for a closed sign-up

    def test_an_unknown_contest_is_refused_with_the_names_there_are(self) -> None:
        create_contest("spring", ContestSettings())
        with self.assertRaisesRegex(ContestError, r"no contest 'fall'; contests: .*spring"):
            find_contest("fall")
        self.assertEqual(find_contest(None).pk, Contest.current().pk)

    def test_the_default_contest_changes_only_what_is_given_and_refuses_unplayable(
        self,
    ) -> None:
        configure_default(players=3)
        configure_default(time_per_move=0.5)
        self.assertEqual((Contest.current().players, Contest.current().time_per_move), (3, 0.5))
        with self.assertRaisesRegex(ContestError, "is played by"):
            configure_default(players=9)
        self.assertEqual(Contest.current().players, 3)

    def test_initialise_makes_the_organiser_once_and_shows_its_password_once(self) -> None:
        first = initialise("org", ruleset="azul")
        self.assertTrue(first.password)
        again = initialise("org", "ignored")
        self.assertIsNone(again.password)
        self.assertTrue(get_user_model().objects.get(username="org").check_password(first.password))


class LifeServiceTests(TestCase):
    def setUp(self) -> None:
        self.contest = create_contest("c", ContestSettings())
        _, self.ann = participant("ann")
        self.ann.contest = self.contest
        self.ann.save()

    def test_a_refused_change_changes_nothing_not_even_the_build_timeout(self) -> None:
        with self.assertRaisesRegex(ContestError, "say what to set"):
            change_contest("c")
        change_contest("c", "frozen", by="test")
        with self.assertRaisesRegex(ContestError, "only moves forward"):
            change_contest("c", "open", build_timeout=300, by="test")
        self.assertEqual(find_contest("c").build_timeout, 120)
        changed = change_contest("c", build_timeout=300)
        self.assertEqual((changed.state, find_contest("c").build_timeout), ("frozen", 300))
        self.assertEqual(show_contest("c")["transitions"][-1]["to"], "frozen")

    def test_an_extension_is_recorded_for_a_team_of_the_contest_only(self) -> None:
        until = timezone.now() + timedelta(days=3)
        with self.assertRaisesRegex(ContestError, "no team 'bob' in c"):
            extend_deadline("c", "bob", until)
        made = extend_deadline("c", "ann", until, "illness", "teacher")
        self.assertEqual(Extension.objects.get().pk, made.pk)
        self.assertEqual(about(self.contest)["extensions"][0]["reason"], "illness")

    def test_a_staff_bot_is_one_reference_bot_or_one_archive(self) -> None:
        for reference, archive in [(None, None), ("random", Path("bot.zip"))]:
            with self.assertRaisesRegex(ContestError, "one of --reference NAME or --archive"):
                enter_staff_bot("c", "staff", reference, archive)
        version = enter_staff_bot("c", "staff-random", reference="random")
        self.assertTrue(version.participant.staff_bot)
        with self.assertRaisesRegex(ContestError, "cannot enter ann: .*not a staff bot"):
            enter_staff_bot("c", "ann", reference="random")
        with self.assertRaisesRegex(ContestError, "cannot enter x: .*no-such"):
            enter_staff_bot("c", "x", archive=Path("/no-such/bot.zip"))
        with self.assertRaisesRegex(ContestError, "'nobody' is no reference bot .*random"):
            enter_staff_bot("c", "y", reference="nobody")
        with self.assertRaisesRegex(ContestError, "net must be a whole number"):
            enter_staff_bot("c", "y", reference="expert:net=x")

    def test_a_reference_staff_bot_keeps_its_parameters(self) -> None:
        import tempfile
        import zipfile

        from bots.expert import ExpertBot
        from sdk.run import load_bot_class

        version = enter_staff_bot("c", "expert-linear", reference="expert:net=0")
        self.assertTrue(version.participant.staff_bot)
        with tempfile.TemporaryDirectory() as tmp:
            with zipfile.ZipFile(io.BytesIO(reference_archive("expert:net=0"))) as zf:
                zf.extractall(tmp)
            bot = load_bot_class(f"{tmp}/expert/bot.py")()
        # The bar a course page names: the expert on its linear fit, not on its network.
        assert isinstance(bot, ExpertBot)
        self.assertIs(bot.net, False)

    def test_results_before_the_final_are_refused(self) -> None:
        import tempfile

        with tempfile.TemporaryDirectory() as tmp:
            with self.assertRaisesRegex(FinalNotDone, "final of c is scheduled.*--partial"):
                export_results("c", Path(tmp))
            with self.assertRaisesRegex(ContestError, "no final tournament yet"):
                export_results("c", Path(tmp), partial=True)


class ClassServiceTests(TestCase):
    def test_a_bad_row_applies_nothing_and_a_good_list_makes_accounts_and_links(self) -> None:
        import tempfile

        create_contest("c", ContestSettings())
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            bad, good = folder / "bad.csv", folder / "good.csv"
            bad.write_text("login,name,email,team\nann,Ann A,ann@x.org,t1\nbob,B,nope,t1\n")
            good.write_text("login,name,email,team\nann,Ann A,ann@x.org,t1\n")
            with self.assertRaisesRegex(ContestError, "line 3.*; nothing was imported"):
                import_class(bad, "c", folder / "links.csv", "http://x")
            self.assertFalse(get_user_model().objects.filter(username="ann").exists())
            done = import_class(good, "c", folder / "links.csv", "http://x")
            self.assertEqual(
                (done.created, done.teams_created, done.links, done.mailed), (1, 1, 1, 0)
            )
            self.assertIn("http://x/welcome/", (folder / "links.csv").read_text())

    def test_an_account_signed_up_under_a_students_login_is_not_given_the_team(self) -> None:
        # Logins are easy to guess: whoever signs up under one before the import (on the site,
        # which makes it a team of its own in the contest) must not become that student's
        # teammate (its code, its logs, its hand-ins); nor may a team signed up under the
        # list's team name take the students in.
        import tempfile

        from django.test import Client

        create_contest("c", ContestSettings())  # the site's front contest: sign-up joins it
        password = "guessed it first 77"
        for login, team in (("s1234567", "squat"), ("s7654321", "team-b")):
            signed_up = Client().post(
                "/signup/",
                {
                    "username": login,
                    "password1": password,
                    "password2": password,
                    "participant": team,
                },
            )
            self.assertEqual(signed_up.status_code, 302)
        squatter = get_user_model().objects.get(username="s1234567")
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            roll = folder / "class.csv"
            roll.write_text("login,name,email,team\ns1234567,Sam S,sam@uni.edu,team-a\n")
            with self.assertRaisesRegex(ContestError, "s1234567.*password of its own.*admin"):
                import_class(roll, "c", folder / "links.csv", "http://x")
            squatter.refresh_from_db()
            self.assertEqual(squatter.email, "")
            self.assertEqual([p.name for p in squatter.participants.all()], ["squat"])
            roll.write_text("login,name,email,team\nann,Ann A,ann@uni.edu,team-b\n")
            with self.assertRaisesRegex(ContestError, "team 'team-b' exists already"):
                import_class(roll, "c", folder / "links.csv", "http://x")
            self.assertFalse(get_user_model().objects.filter(username="ann").exists())
            # An account the class list made, whose student has since set a password, is
            # updated by the next import as any other (here moved to another team).
            roll.write_text("login,name,email,team\nsam2,Sam T,sam2@uni.edu,team-a\n")
            import_class(roll, "c", folder / "links.csv", "http://x")
            student = get_user_model().objects.get(username="sam2")
            student.set_password("the student's own 55")
            student.save()
            roll.write_text("login,name,email,team\nsam2,Sam T,sam2@new.edu,team-c\n")
            done = import_class(roll, "c", folder / "links.csv", "http://x")
            self.assertEqual((done.created, done.updated, done.links), (0, 1, 0))
            student.refresh_from_db()
            self.assertEqual(student.email, "sam2@new.edu")
            self.assertEqual([p.name for p in student.participants.all()], ["team-c"])


def _signup(slug: str) -> tuple[str, str]:
    contest = Contest.objects.get(slug=slug)
    return contest.signup, contest.signup_code
