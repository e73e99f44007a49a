"""The test servers and the port race: a port :func:`free_port` found free can be taken before
our server binds it (fresh-clone CI on 2026-12-07 lost a marimo test that way). Ports now come
from outside the system's port-0 range; a server whose port was taken all the same starts again
on another; a server that fails for any other reason fails at once, with its log. Real
processes on real ports."""

from __future__ import annotations

import socket
import sys
import urllib.request

import pytest

from tests.support.browser import SERVER_PORTS, PortTaken, free_port
from tests.support.hosts import HostServer


class _Files(HostServer):
    """Python's own file server: it exits with "Address already in use" on a taken port."""

    name = "http"

    def command(self) -> list[str]:
        return [sys.executable, "-m", "http.server", str(self.port), "--bind", "127.0.0.1"]


class _Broken(HostServer):
    """A server that exits at once, for a reason that is not its port."""

    name = "broken"

    def command(self) -> list[str]:
        return [sys.executable, "-c", "raise SystemExit('no notebook to serve')"]


class _Squatted(_Files):
    """A server whose every port is taken the moment it is chosen."""

    def _launch(self) -> HostServer:
        with socket.socket() as squatter:  # bound, not listening: nothing answers there
            squatter.bind(("127.0.0.1", self.port))
            return super()._launch()


def test_a_server_whose_port_was_taken_first_starts_on_another() -> None:
    server = _Files([], timeout=30)
    taken = server.port
    with socket.socket() as squatter:  # another process got there first
        squatter.bind(("127.0.0.1", taken))
        with server:
            assert server.port != taken
            with urllib.request.urlopen(server.url("/"), timeout=10) as answer:
                assert answer.status == 200


def test_a_server_that_fails_for_another_reason_fails_at_once_with_its_log() -> None:
    server = _Broken([], timeout=30)
    port = server.port
    with pytest.raises(
        RuntimeError, match=r"(?s)broken exited early.*no notebook to serve"
    ) as info:
        server.start()
    assert not isinstance(info.value, PortTaken)
    assert server.port == port  # not retried on another port
    server.stop()


def test_a_server_gives_up_after_three_ports_all_taken() -> None:
    server = _Squatted([], timeout=30)
    with pytest.raises(PortTaken, match="already in use"):
        server.start()
    server.stop()


def test_ports_come_from_outside_the_systems_port_0_range() -> None:
    ports = {free_port() for _ in range(20)}
    assert all(port in SERVER_PORTS for port in ports)
    assert len(ports) > 10  # drawn at random, not handed out in turn
