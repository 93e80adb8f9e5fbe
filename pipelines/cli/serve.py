"""`arbiter serve` (the live results site and API) and `arbiter user` (its accounts)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from events.errors import UserError
from pipelines.cli.common import FormatOpt, err, open_store, store_url, user_errors
from pipelines.views.output import Format, emit

app = typer.Typer()
"""This module's commands (`pipelines.cli` loads it when one of them is run)."""

user_app = typer.Typer(
    help="Accounts of the web server: officers and tournament directors.", no_args_is_help=True
)
app.add_typer(user_app, name="user")


@app.command("serve")
@user_errors
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=0, max=65535, help="Port to listen on.")] = 8000,
    lists_dir: Annotated[
        Path, typer.Option(help="Folder for rating lists that officers run from the browser.")
    ] = Path("lists"),
    upload_limit: Annotated[
        int,
        typer.Option(min=1, help="Largest result-file upload request (all its files), in bytes."),
    ] = 20 * 1024 * 1024,
    max_body: Annotated[
        int, typer.Option(min=1, help="Largest body of any other request (JSON, forms), in bytes.")
    ] = 1024 * 1024,
    forwarded_allow_ips: Annotated[
        str,
        typer.Option(
            help="Proxies whose X-Forwarded-For names the client (comma-separated addresses or "
            "networks, e.g. 127.0.0.1 for a proxy on this host); default: none trusted."
        ),
    ] = "",
    header_timeout: Annotated[
        float,
        typer.Option(
            min=0.1,
            help="Seconds a connection has to send its request headers; a slower one is closed.",
        ),
    ] = 10.0,
    public_url: Annotated[
        str | None,
        typer.Option(
            help="The site's address as players reach it (QR codes and links), e.g. "
            "https://chess.example.org/; default: http://HOST:PORT/ (this machine's network "
            "address when HOST is 0.0.0.0 or ::). A request's Host header never sets it."
        ),
    ] = None,
) -> None:
    """Serve live pairings, standings, crosstables and rating lists, and the API.

    Public pages need no login; directors and officers log in (`arbiter user add`, `arbiter
    user passwd`) or send their API token. Pages update by themselves when a result is
    recorded, here, by the CLI or by another server on the same PostgreSQL log. On a DuckDB
    file the server holds no lock between requests, so the CLI keeps working beside it.
    Over plain http (the venue's network) the forms work as they do on 127.0.0.1; on an address
    other than loopback the server says at start that passwords cross the network in clear.
    Behind a TLS proxy: the session cookies are Secure over https; give the proxy's address
    with --forwarded-allow-ips (so the login throttle sees each client's own address and the
    proxy's X-Forwarded-Proto counts) and the https address with --public-url.
    """
    import uvicorn

    from pipelines.web.app import create_app
    from pipelines.web.protocol import with_header_timeout

    proxies = trusted_proxies(forwarded_allow_ips)
    site = site_url(public_url, host, port)
    application = create_app(
        store_url(),
        lists_dir=lists_dir.resolve(),
        upload_limit=upload_limit,
        max_body=max_body,
        public_url=site,
    )
    err.print(
        f"arbiter serves {store_url()} on http://{_netloc(host, port)}/ (links and QR codes: "
        f"{site})",
        markup=False,
    )
    if not _loopback(host):
        err.print(
            f"warning: http://{_netloc(host, port)}/ is plain http on the network: passwords "
            "and session cookies cross it in clear. For TLS, put a proxy with a certificate in "
            "front (Caddy, nginx), serve with --host 127.0.0.1 --forwarded-allow-ips 127.0.0.1 "
            "and give its https address with --public-url.",
            markup=False,
        )
    uvicorn.run(
        application,
        host=host,
        port=port,
        log_level="warning",
        access_log=False,
        timeout_graceful_shutdown=2,
        proxy_headers=bool(proxies),
        forwarded_allow_ips=proxies or None,
        http=with_header_timeout(header_timeout),
    )


def _netloc(host: str, port: int) -> str:
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def _loopback(host: str) -> bool:
    import ipaddress

    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False  # a name: taken as reachable from the network


def _own_address(ipv6: bool) -> str:
    """This machine's address on its network (the route out: no packet is sent), else
    loopback."""
    import socket

    family, probe, loop = (socket.AF_INET, "192.0.2.1", "127.0.0.1")  # documentation nets
    if ipv6:
        family, probe, loop = (socket.AF_INET6, "2001:db8::1", "::1")
    try:
        with socket.socket(family, socket.SOCK_DGRAM) as s:
            s.connect((probe, 9))
            return str(s.getsockname()[0])
    except OSError:
        return loop


def site_url(given: str | None, host: str, port: int) -> str:
    """The site's public address, ending in '/': ``--public-url`` (checked), else
    http://HOST:PORT/ (a wildcard HOST: this machine's network address)."""
    from urllib.parse import urlsplit

    if given is None:
        if host in ("0.0.0.0", "::", ""):
            host = _own_address(host == "::")
        return f"http://{_netloc(host, port)}/"
    parts = urlsplit(given.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.query or parts.fragment:
        raise UserError(
            f"--public-url: '{given}' is not an http(s) address such as https://chess.example.org/"
        )
    return parts._replace(path=parts.path.rstrip("/") + "/").geturl()


def trusted_proxies(given: str) -> list[str]:
    """The addresses and networks of ``--forwarded-allow-ips`` ('*': any), each checked."""
    import ipaddress

    out = [part.strip() for part in given.split(",") if part.strip()]
    for part in out:
        try:
            if part != "*":
                ipaddress.ip_network(part, strict=False)
        except ValueError:
            raise UserError(
                f"--forwarded-allow-ips: '{part}' is not an IP address or network"
            ) from None
    return out


@user_app.command("add")
@user_errors
def user_add(
    name: Annotated[str, typer.Argument(help="Login name.")],
    role: Annotated[str, typer.Option(help="officer or director.")],
    tournament: Annotated[
        str | None, typer.Option(help="Director: the tournament he runs.")
    ] = None,
) -> None:
    """Create an account; prints its API token as the last line (shown only this once)."""
    from pipelines.web.accounts import add_user

    if role not in ("officer", "director"):
        raise UserError(f"--role must be officer or director (found '{role}')")
    with open_store() as store:
        token = add_user(store, name, role, tournament)  # type: ignore[arg-type]
    err.print(f"user {name} ({role}) created; the API token follows", markup=False)
    sys.stdout.write(token + "\n")


@user_app.command("passwd")
@user_errors
def user_passwd(name: Annotated[str, typer.Argument(help="Login name.")]) -> None:
    """Set the browser-login password (prompted; read from stdin when it is not a terminal)."""
    from pipelines.web.accounts import set_password

    if sys.stdin.isatty():
        password = typer.prompt("password", hide_input=True, confirmation_prompt=True)
    else:
        password = sys.stdin.readline().rstrip("\r\n")
    with open_store() as store:
        set_password(store, name, password)
    err.print(f"password of {name} set", markup=False)


@user_app.command("revoke")
@user_errors
def user_revoke(name: Annotated[str, typer.Argument(help="Login name.")]) -> None:
    """Revoke an account: its API token, password and open sessions stop working."""
    from pipelines.web.accounts import revoke_user

    with open_store() as store:
        revoke_user(store, name)
    err.print(f"user {name} revoked", markup=False)


@user_app.command("list")
@user_errors
def user_list(fmt: FormatOpt = Format.TEXT) -> None:
    """The accounts (never their secrets)."""
    from pipelines.web.accounts import list_users

    with open_store() as store:
        emit(list_users(store), fmt)
