from datetime import UTC, datetime
from pathlib import Path

from django.conf import settings
from django.db import migrations

# A final was a tournament database of its own (contests/<slug>/final.sqlite in the data folder)
# before its games were rows of the server's database. Each such file is imported here, whole:
# its run key and entries, and every game, played or pending (a final that was being played
# resumes from the rows). The file is left where it is (nothing reads it any more); a final
# already in the rows (a database migrated back and forth) is not imported twice.
#
# The file is read with the tournament domain's store, which reads every schema it ever wrote.


def _file(contest):
    return Path(settings.HOME) / "contests" / (contest.slug or str(contest.pk)) / "final.sqlite"


def _versions(apps, contest):
    """Each entry's version by its name (the final's entries are named by participant), and
    by its files (a participant renamed since)."""
    HandIn = apps.get_model("arena_handins", "HandIn")
    Version = apps.get_model("arena_submissions", "Version")
    by_name = dict(
        HandIn.objects.filter(contest=contest, version__isnull=False).values_list(
            "participant__name", "version_id"
        )
    )
    by_spec = {}
    for v in Version.objects.filter(participant__contest=contest):
        folder = Path(settings.HOME) / "versions" / str(v.participant_id) / str(v.number) / "bot"
        by_spec[str(folder if v.entry == "." else folder / v.entry)] = v.pk
    return by_name, by_spec


def import_finals(apps, schema_editor):
    from tournaments.domain.store import Store, StoreError
    from tournaments.server.ladder.results import public_record

    Contest = apps.get_model("arena_contests", "Contest")
    Final = apps.get_model("arena_finals", "Final")
    FinalGame = apps.get_model("arena_finals", "FinalGame")
    Game = apps.get_model("arena_ladder", "Game")
    Seat = apps.get_model("arena_ladder", "Seat")
    for contest in Contest.objects.all():
        path = _file(contest)
        if not path.is_file() or Final.objects.filter(contest=contest).exists():
            continue
        try:
            store = Store.open(path, create=False)
        except StoreError:
            continue  # made and never written: a final not started, which starts afresh
        with store:
            config = store.config()
            if config is None:
                continue
            entries = store.entries()
            by_name, by_spec = _versions(apps, contest)
            versions = {}
            for e in entries:
                version = by_name.get(e.name, by_spec.get(e.spec))
                if version is None:
                    raise RuntimeError(
                        f"the final in {path} has the entry {e.name!r}, which is no version of "
                        f"the contest {contest.slug or contest.pk}: its hand-in or its version "
                        "was deleted. Restore it, or move the file away to drop that final."
                    )
                versions[e.name] = version
            created = store.get_meta("created_at")
            final = Final.objects.create(
                contest=contest,
                config=config,
                entries=[[e.name, e.spec, *([e.options()] if e.options() else [])] for e in entries],
                entry_changes=store.entry_changes(),
                created=datetime.fromtimestamp(float(created), UTC) if created else datetime.now(UTC),
            )
            for g in store.games():
                _import_game(store, final, contest, config, g, versions, public_record,
                             Game, Seat, FinalGame)


def _import_game(store, final, contest, config, g, versions, public_record, Game, Seat, FinalGame):
    done = g.status == "done"
    record = store.replay(g.game.game_id) if done else None
    machine = g.machine
    game = Game.objects.create(
        contest=contest,
        kind="final",
        status="done" if done else "scheduled",
        created=final.created,
        finished=datetime.fromtimestamp(g.finished_at, UTC) if g.finished_at else None,
        ruleset=config.get("ruleset", contest.ruleset),
        options=dict(config.get("options") or {}),
        time_per_move=config.get("time_per_move", contest.time_per_move),
        seed=g.game.seed,
        attempts=g.attempts,
        error=g.last_error or "",
        duration=g.duration,
        host=machine.host if machine else "",
        isolation=machine.isolation if machine else "",
        record=None if record is None else public_record(record, list(g.game.seats)),
    )
    outcomes = list(g.seats) if done else []  # in seat order
    for i, name in enumerate(g.game.seats):
        o = outcomes[i] if i < len(outcomes) else None
        Seat.objects.create(
            game=game,
            seat=i,
            version_id=versions[name],
            score=o.score if o else None,
            rank=o.rank if o else None,
            termination=o.termination if o else "",
            moves=o.moves if o else 0,
            move_time=o.move_time if o else 0.0,
            cpu_time=o.cpu_time if o else None,
        )
    FinalGame.objects.create(
        game=game,
        final=final,
        index=g.game.index,
        name=g.game.game_id,
        entries=list(g.game.seats),
        group=g.game.group,
        deal=g.game.deal,
        rotation=g.game.rotation,
        cpus=machine.cpus if machine else None,
        faults=[{"strikes": o.strikes, "faults": o.faults} for o in outcomes],
    )


def drop_imported(apps, schema_editor):
    """Back to the files: the rows of each final whose file is there go (the file is what the
    code before reads; games played since the import are not in it). A final with no file
    (started after the import) cannot go back: said, and nothing is changed."""
    Final = apps.get_model("arena_finals", "Final")
    Game = apps.get_model("arena_ladder", "Game")
    finals = list(Final.objects.select_related("contest"))
    lost = [f.contest.slug or str(f.contest.pk) for f in finals if not _file(f.contest).is_file()]
    if lost:
        raise RuntimeError(
            f"the finals of {', '.join(lost)} are in the database only (played after this "
            "migration): export them (server export-results SLUG --partial) before going back"
        )
    for final in finals:
        Game.objects.filter(in_final__final=final).delete()
        final.delete()


class Migration(migrations.Migration):

    dependencies = [
        ('arena_finals', '0001_initial'),
        ('arena_handins', '0001_initial'),
        ('arena_submissions', '0004_refused_upload'),
    ]

    operations = [
        migrations.RunPython(import_finals, drop_imported),
    ]
