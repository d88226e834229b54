"""`referee serve` (the referee on its own, for remote bots and its operator) and `referee token
new` (the tokens remote bots and operators present)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from referee import run_loop
from tournaments.commands.common import (
    ISOLATION_HELP,
    Exit,
    check_isolation,
    console,
    err_console,
    fail,
    isolation_line,
    print_json,
)
from tournaments.commands.groups import referee_app, token_app

if TYPE_CHECKING:
    from referee import Exposure, Network, TokenFile
    from tournaments.domain.entries import Entry

DEFAULT_TOKENS = Path("azul-arena-tokens.json")


def _read(path: Path | None) -> bytes | None:
    if path is None:
        return None
    try:
        return path.read_bytes()
    except OSError as exc:
        fail(f"cannot read {path}: {exc.strerror}")


@referee_app.command("serve")
def serve(
    listen: str = typer.Option(
        "unix:/tmp/azul-arena-referee.sock",
        "--listen",
        help="unix:PATH or HOST:PORT: remote bots connect here",
    ),
    tls_cert: Path | None = typer.Option(
        None, "--tls-cert", help="PEM certificate (chain): serve TLS"
    ),
    tls_key: Path | None = typer.Option(None, "--tls-key", help="its PEM private key"),
    tokens: Path | None = typer.Option(
        None,
        "--tokens",
        help="tokens file (referee token new): a remote bot with one "
        "of its bot tokens is that entry, one connection at a "
        "time; an operator token lets a caller use RunMatch",
    ),
    entries: Path | None = typer.Option(
        None,
        "--entries",
        help="entries TOML: the only entries (besides the built-in "
        "bots and remote bots by token) a RunMatch may seat",
    ),
    api_listen: list[str] = typer.Option(
        [],
        "--api-listen",
        help="one more address that serves the referee API alone "
        "(unix:PATH for the local operator, or HOST:PORT)",
    ),
    tls_client_ca: Path | None = typer.Option(
        None,
        "--tls-client-ca",
        help="PEM CA: an --api-listen HOST:PORT then requires a "
        "client certificate it signed (mutual TLS)",
    ),
    public_watch: bool = typer.Option(
        False, "--public-watch", help="anyone may WatchMatch (never RunMatch)"
    ),
    insecure: bool = typer.Option(
        False,
        "--insecure",
        help="serve on a network address without TLS or without an operator credential anyway",
    ),
    isolation: str | None = typer.Option(None, "--isolation", help=ISOLATION_HELP),
) -> None:
    """Run the referee standalone: remote bots connect and play; its operator runs matches
    (RunMatch) and watches them (WatchMatch). Over TCP every API call needs an operator token
    (metadata `authorization: Bearer TOKEN`); a RunMatch seat is a built-in bot, an entry of
    --entries or a remote bot's token, never a command line or a path. On a network address
    the referee refuses to start without TLS and an operator credential (--insecure to
    override).

    Example: azul-arena referee serve --listen 0.0.0.0:50051 --tls-cert cert.pem --tls-key
    key.pem --tokens azul-arena-tokens.json --entries class.toml
    """
    from referee import Exposure, ExposureError, Network, refuse_exposure

    tls, client_ca = _tls(tls_cert, tls_key, tls_client_ca, api_listen)
    issued, registered = _tokens(tokens), _entries(entries)
    exposure = Exposure.of(listen, api_listen, tls, issued, client_ca)
    try:  # the referee's own rule (referee.server), checked here to say it before starting
        problems = refuse_exposure(exposure, insecure)
    except ExposureError as exc:
        fail(str(exc))
        raise
    for problem in problems:
        console.print(
            f"[yellow]warning (--insecure):[/] {problem}", highlight=False, soft_wrap=True
        )
    level = check_isolation(isolation)
    local = [a for a in [listen, *api_listen] if a.startswith("unix:")]
    if local and not exposure.operators and level != "sandbox":
        console.print(
            f"[yellow]warning:[/] bots at isolation {level} run as your user on this "
            f"file system and can dial {', '.join(local)}: issue an operator token "
            "(referee token new NAME --operator) and the API asks for it there too",
            highlight=False,
            soft_wrap=True,
        )
    network = Network(
        listen=listen,
        tls=tls,
        tokens=issued,
        api=list(api_listen),
        client_ca=client_ca,
        public_watch=public_watch,
        insecure=insecure,
    )
    try:
        run_loop(_serve(registered, network, level, exposure))
    except KeyboardInterrupt:
        pass
    except (OSError, RuntimeError) as exc:  # grpc says RuntimeError for an address it can't bind
        fail(f"cannot listen on {listen}: {exc}", Exit.FAILED)


def _tls(
    cert_file: Path | None, key_file: Path | None, ca_file: Path | None, api_listen: list[str]
) -> tuple[tuple[bytes, bytes] | None, bytes | None]:
    """The TLS certificate chain and key, and the client CA, read from their files."""
    if (cert_file is None) != (key_file is None):
        fail("give both --tls-cert and --tls-key (or neither)")
    if ca_file is not None and (
        cert_file is None or not any(not a.startswith("unix:") for a in api_listen)
    ):
        fail(
            "--tls-client-ca applies to an --api-listen HOST:PORT served with --tls-cert and "
            "--tls-key (bots on --listen present tokens, not certificates)"
        )
    cert, key, client_ca = _read(cert_file), _read(key_file), _read(ca_file)
    return ((cert, key) if cert is not None and key is not None else None), client_ca


def _tokens(path: Path | None) -> TokenFile | None:
    from referee import TokenError, TokenFile

    if path is None:
        return None
    try:
        return TokenFile.load(path)
    except TokenError as exc:
        fail(str(exc))
        raise


def _entries(path: Path | None) -> list[Entry]:
    from tournaments.domain.entries import EntryError, load_entries_toml

    if path is None:
        return []
    try:
        return load_entries_toml(path)
    except EntryError as exc:
        fail(str(exc))
        raise


async def _serve(registered: list[Entry], network: Network, level: str, exposure: Exposure) -> None:
    """Serve until interrupted: an Arena listening as `network` says, its bots at `level`."""
    from referee import Arena, BotSettings
    from tournaments.domain.arena import arena_options
    from tournaments.domain.settings import MatchSettings

    bots = BotSettings(**arena_options(registered, MatchSettings(isolation=level)))
    async with Arena({e.name: e.spec for e in registered}, bots=bots, network=network) as arena:
        _say_serving(
            arena.address,
            network.tls is not None,
            network.tokens,
            level,
            exposure,
            network.public_watch,
            len(registered),
        )
        assert arena.server is not None
        await arena.server.wait()


def _say_serving(
    address: str,
    tls: bool,
    issued: Any,
    level: str,
    exposure: Exposure,
    public_watch: bool,
    registered: int,
) -> None:
    """What the referee serves, to whom, and how isolated its bots are."""
    console.print(
        f"referee listening on {address}"
        + (" with TLS" if tls else "")
        + (f", {len(issued.digests)} issued bot tokens" if issued else "")
        + f" (health and reflection on); {isolation_line(level)}",
        highlight=False,
        soft_wrap=True,
    )
    console.print(exposure.api_line(public_watch), highlight=False, soft_wrap=True)
    console.print(
        "RunMatch seats: the built-in bots"
        + (f", {registered} registered entries" if registered else "")
        + ", remote bots by token",
        highlight=False,
        soft_wrap=True,
    )


@token_app.command("new")
def token_new(
    name: str = typer.Argument(..., help="the entry's (or operator's) name"),
    tokens: Path = typer.Option(DEFAULT_TOKENS, "--tokens", help="tokens file"),
    operator: bool = typer.Option(
        False,
        "--operator",
        help="a token for calling the referee's API (RunMatch, WatchMatch), not for a bot",
    ),
    replace: bool = typer.Option(
        False, "--replace", help="issue a new token for a name that has one"
    ),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """Issue the token a remote bot says Hello with to be entry NAME, or with --operator the
    token an operator calls RunMatch with (printed once: the file keeps only its hash).

    Example: azul-arena referee token new alice --tokens tokens.json
    """
    from referee import TokenError, TokenFile

    try:
        token = TokenFile.load(tokens, create=True).issue(name, replace, operator=operator)
    except TokenError as exc:
        fail(str(exc))
    if as_json:
        print_json(
            {
                "name": name,
                "token": token,
                "tokens": str(tokens),
                "kind": "operator" if operator else "bot",
            }
        )
        return
    print(token)
    if operator:
        err_console.print(
            f"operator token {name} saved (hashed) in {tokens}; send it with each "
            "RunMatch/WatchMatch call as metadata `authorization: Bearer TOKEN` "
            "(keep it secret: it runs matches on the referee)",
            highlight=False,
            soft_wrap=True,
        )
        return
    err_console.print(
        f"token for {name} saved (hashed) in {tokens}; give it to {name}: "
        f"python -m sdk.run bot.py --referee HOST:PORT --token TOKEN "
        "[--tls-ca cert.pem]",
        highlight=False,
        soft_wrap=True,
    )
