"""A resolver the tests control, local receivers (plain HTTP and TLS) and a certificate
authority of their own."""

from __future__ import annotations

import datetime
import socket
import ssl
import threading
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path
from typing import Any

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

REAL_GETADDRINFO = socket.getaddrinfo


class Resolver:
    """socket.getaddrinfo for the names given: the n-th lookup of a name gets its n-th
    answer (the last one from then on), each answer one or more addresses separated by
    commas; other names are resolved for real."""

    def __init__(self, answers: dict[str, list[str]]) -> None:
        self.answers = answers
        self.lookups: list[str] = []

    def __call__(self, host: Any, port: Any, *args: Any, **kwargs: Any) -> list[Any]:
        if host not in self.answers:
            return REAL_GETADDRINFO(host, port, *args, **kwargs)
        seen = self.lookups.count(host)
        self.lookups.append(host)
        options = self.answers[host]
        return [_info(a, port) for a in options[min(seen, len(options) - 1)].split(",")]


def _info(address: str, port: Any) -> tuple[Any, ...]:
    if ":" in address:
        return (socket.AF_INET6, socket.SOCK_STREAM, 6, "", (address, port, 0, 0))
    return (socket.AF_INET, socket.SOCK_STREAM, 6, "", (address, port))


@pytest.fixture
def resolver(monkeypatch: pytest.MonkeyPatch) -> Callable[[dict[str, list[str]]], Resolver]:
    def install(answers: dict[str, list[str]]) -> Resolver:
        fake = Resolver(answers)
        monkeypatch.setattr(socket, "getaddrinfo", fake)
        return fake

    return install


class Receiver(BaseHTTPRequestHandler):
    """Records each request's path and headers; answers `answer` (and `location`)."""

    received: list[tuple[str, dict[str, str]]] = []
    answer = 204
    location = ""

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        type(self).received.append((self.path, {k.lower(): v for k, v in self.headers.items()}))
        self.send_response(type(self).answer)
        if type(self).location:
            self.send_header("Location", type(self).location)
        self.end_headers()

    def log_message(self, *args: Any) -> None:
        pass


def serve(wrap: ssl.SSLContext | None = None) -> Iterator[int]:
    Receiver.received, Receiver.answer, Receiver.location = [], 204, ""
    server = HTTPServer(("127.0.0.1", 0), Receiver)
    if wrap is not None:
        server.socket = wrap.wrap_socket(server.socket, server_side=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server.server_port
    server.shutdown()
    server.server_close()


@pytest.fixture
def http_port() -> Iterator[int]:
    yield from serve()


def _name(common: str) -> x509.Name:
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common)])


def _certificate(
    subject: str, issuer: str, key: Any, signer: Any, *, ca: bool, names: list[str]
) -> x509.Certificate:
    now = datetime.datetime.now(datetime.UTC)
    builder = (
        x509.CertificateBuilder()
        .subject_name(_name(subject))
        .issuer_name(_name(issuer))
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True)
    )
    if names:
        san = x509.SubjectAlternativeName([x509.DNSName(n) for n in names])
        builder = builder.add_extension(san, critical=False)
    return builder.sign(signer, hashes.SHA256())


class Authority:
    """A CA the client trusts and a server certificate it issued for hook.example."""

    def __init__(self, directory: Path) -> None:
        ca_key = ec.generate_private_key(ec.SECP256R1())
        ca = _certificate("test CA", "test CA", ca_key, ca_key, ca=True, names=[])
        key = ec.generate_private_key(ec.SECP256R1())
        leaf = _certificate("hook.example", "test CA", key, ca_key, ca=False,
                            names=["hook.example"])  # fmt: skip
        self.ca_pem = ca.public_bytes(serialization.Encoding.PEM).decode()
        self.cert_file, self.key_file = directory / "cert.pem", directory / "key.pem"
        self.cert_file.write_bytes(leaf.public_bytes(serialization.Encoding.PEM))
        self.key_file.write_bytes(
            key.private_bytes(
                serialization.Encoding.PEM,
                serialization.PrivateFormat.PKCS8,
                serialization.NoEncryption(),
            )
        )
        self.server_names: list[str | None] = []

    def server_context(self) -> ssl.SSLContext:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(self.cert_file, self.key_file)

        def note(sock: Any, name: str | None, ctx: Any) -> None:
            self.server_names.append(name)

        context.sni_callback = note
        return context

    def client_context(self) -> ssl.SSLContext:
        return ssl.create_default_context(cadata=self.ca_pem)


@pytest.fixture
def authority(tmp_path: Path) -> Authority:
    return Authority(tmp_path)


@pytest.fixture
def https_port(authority: Authority) -> Iterator[int]:
    yield from serve(authority.server_context())
