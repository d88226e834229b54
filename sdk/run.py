"""Run a bot: `run(MyBot)` in a bot file, or `python -m sdk.run path/bot.py[:Class] | module:Class`.

The referee's address and the bot's token come from `--referee ADDR --token T` or, as the
launcher sets them, AZUL_ARENA_REFEREE and AZUL_ARENA_TOKEN. Run a bot file by hand against a
remote referee with `python path/bot.py --referee host:50051 --token T`.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import importlib.util
import inspect
import os
import sys
from pathlib import Path
from types import ModuleType

from sdk.bot import Bot


def load_bot_class(spec: str) -> type[Bot]:
    """`path/bot.py`, `path/bot.py:Class` or `package.module:Class` -> the Bot subclass."""
    target, _, class_name = spec.partition(":") if not spec.endswith(".py") else (spec, "", "")
    module: ModuleType
    if target.endswith(".py"):
        path = Path(target).resolve()
        name = f"azul_bot_{path.stem}"
        loader_spec = importlib.util.spec_from_file_location(name, path)
        if loader_spec is None or loader_spec.loader is None:
            raise SystemExit(f"cannot load {path}")
        module = importlib.util.module_from_spec(loader_spec)
        sys.modules[name] = module
        sys.path.insert(0, str(path.parent))  # the bot may import its own helper modules
        loader_spec.loader.exec_module(module)
    else:
        module = importlib.import_module(target)
    if class_name:
        found = getattr(module, class_name, None)
        if not (inspect.isclass(found) and issubclass(found, Bot)):
            raise SystemExit(f"{spec}: {class_name} is not a Bot subclass")
        return found
    classes = [
        c
        for c in vars(module).values()
        if inspect.isclass(c)
        and issubclass(c, Bot)
        and c is not Bot
        and c.__module__ == module.__name__
    ]
    if len(classes) != 1:
        names = ", ".join(c.__name__ for c in classes) or "none"
        raise SystemExit(
            f"{spec}: expected exactly one Bot subclass (found {names}); "
            "name it as path/bot.py:ClassName"
        )
    return classes[0]


def load_bot(target: str) -> Bot:
    """A bot made from `load_bot_class`'s spec, with the parameters a built-in spec carries
    after `?` (`bots.mcts_bot:MctsBot?iterations=400`: referee.launcher.builtin_target) given to
    its class as keyword arguments, each checked as an entry's (`Bot.parameter`)."""
    spec, _, query = target.partition("?")
    cls = load_bot_class(spec)
    params = {}
    for item in query.split(",") if query else []:
        key, _, value = item.partition("=")
        params[key] = cls.parameter(cls.name or cls.__name__, key, value)
    return cls(**params)


def _arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description="Run an Azul Arena bot against a referee.")
    parser.add_argument(
        "--referee",
        default=os.environ.get("AZUL_ARENA_REFEREE"),
        help="referee address: unix:/path or host:port (env AZUL_ARENA_REFEREE)",
    )
    parser.add_argument(
        "--token",
        default=os.environ.get("AZUL_ARENA_TOKEN", ""),
        help="the token the referee gave this bot (env AZUL_ARENA_TOKEN)",
    )
    parser.add_argument(
        "--tls-ca",
        default=os.environ.get("AZUL_ARENA_TLS_CA", ""),
        help="the referee serves TLS: its certificate (or CA) file, or `system` "
        "(env AZUL_ARENA_TLS_CA)",
    )
    parser.add_argument("--quiet", action="store_true", help="log warnings only")
    args, _ = parser.parse_known_args(argv)
    if not args.referee:
        parser.error("no referee address: pass --referee or set AZUL_ARENA_REFEREE")
    return args


def last_words(exc: BaseException) -> None:
    """Print the traceback of the exception that ends the bot; when its log is full (the
    referee bounds it), make room at its end for the traceback's last line, which the referee
    reports as the reason of the crash."""
    from sdk.client import bot_traceback, last_line

    try:
        sys.stderr.write(bot_traceback(exc))  # the bot's own frames (see bot_traceback)
        sys.stderr.flush()
    except OSError:
        with contextlib.suppress(OSError):
            size = os.fstat(2).st_size
            os.ftruncate(2, max(0, size - 4096))
            os.write(2, f"\n[log cut at its size limit]\n{last_line(exc)}\n".encode())


def run(bot: type[Bot] | Bot, argv: list[str] | None = None) -> int:
    """Play with `bot` (a Bot subclass or instance) until the referee ends the stream.

    Returns the number of games played.
    """
    import logging

    from sdk.client import Rejected, Unreachable, configure_logging, play

    args = _arguments(sys.argv[1:] if argv is None else argv)
    if args.tls_ca:
        os.environ["AZUL_ARENA_TLS_CA"] = args.tls_ca  # read where the channel opens
    configure_logging(logging.WARNING if args.quiet else logging.INFO)
    try:
        instance = bot() if isinstance(bot, type) else bot
        return play(instance, args.referee, args.token)
    except Rejected as exc:
        print(f"the referee refused this bot: {exc}", file=sys.stderr)
        raise SystemExit(3) from None
    except Unreachable as exc:
        print(exc, file=sys.stderr)
        raise SystemExit(4) from None
    except Exception as exc:  # the bot's own code: its last words reach its log
        last_words(exc)
        raise SystemExit(1) from None


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0].startswith("-"):
        raise SystemExit(
            "usage: python -m sdk.run path/bot.py[:Class]|module:Class [--referee ADDR] [--token T]"
        )
    try:
        bot = load_bot(argv[0])
    except Exception as exc:  # its file does not load (a SyntaxError, an import): its last words
        last_words(exc)
        raise SystemExit(1) from None
    run(bot, argv[1:])


if __name__ == "__main__":
    main()
