"""One webhook request, sent to the address that was checked.

Checking a name and then letting the HTTP library resolve it again leaves a window: a DNS
server may answer a public address to the check and 10.0.0.1 to the connection (DNS
rebinding). Here the name is resolved once, every address it gives must be globally
routable (Python's `is_global`: no private, shared 100.64/10, benchmarking, documentation,
reserved or IPv4-mapped private ranges; nor multicast), and the socket is opened to the
first of them.
The Host header, TLS's SNI and the certificate check still use the URL's name, so a
certificate issued for another name fails the delivery.

No redirect is followed (http.client follows none): a 3xx is logged as the answer, so a
public endpoint cannot send the worker on to an address nobody checked.
"""

from __future__ import annotations

import http.client
import ipaddress
import re
import socket
import ssl
from urllib.parse import urlsplit

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
# RFC 6052's well-known NAT64 prefix: a gateway turns 64:ff9b::a00:1 into 10.0.0.1.
NAT64 = ipaddress.IPv6Network("64:ff9b::/96")
DEFAULT_PORTS = {"http": 80, "https": 443}
# Up to four dot-separated numbers, decimal, octal (0 first) or hex (0x first): what
# inet_aton, and so getaddrinfo, reads as an IPv4 address.
LEGACY_IPV4 = re.compile(r"(?:0x[0-9a-f]*|[0-9]+)(?:\.(?:0x[0-9a-f]*|[0-9]+)){0,3}")


class Refused(Exception):
    """The endpoint's address is not one the advisor sends to."""


def _embedded_ipv4(address: IPAddress) -> ipaddress.IPv4Address | None:
    """The IPv4 address an IPv6 one carries to (mapped, 6to4, NAT64), or None."""
    if not isinstance(address, ipaddress.IPv6Address):
        return None
    if address.ipv4_mapped is not None:
        return address.ipv4_mapped
    if address.sixtofour is not None:
        return address.sixtofour
    if address in NAT64:
        return ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    return None


def _public(address: IPAddress) -> bool:
    # is_global is True for multicast (224.0.0.1, ff0e::1) in Python 3.11.
    return (
        address.is_global
        and not address.is_multicast
        and not address.is_reserved
        and not address.is_unspecified
    )


def routable(address: IPAddress) -> bool:
    """Whether a packet to `address` reaches one host on the public internet, not a
    private network."""
    inner = _embedded_ipv4(address)
    if inner is None:
        return _public(address)
    # ::ffff:0:0/96 sits in IPv6's reserved ::/8: the IPv4 address it carries decides.
    return address.is_global and _public(inner)


def connection_name(host: str) -> str:
    """The host as the connection looks it up: IDNA (NFKC: `１２７` and `①②⑦` are 127,
    `。` a dot), lower case, without a trailing dot. Raises UnicodeError for a name IDNA
    cannot write."""
    name = host.encode("idna").decode("ascii") if not host.isascii() else host
    return name.lower().removesuffix(".")


def literal(host: str) -> IPAddress | None:
    """The host as an IP address when the connection would take it as one, else None:
    besides the dotted quad, the C library's legacy forms (2130706433, 0x7f000001,
    017700000001, 127.1, 0) are IPv4 addresses."""
    try:
        name = connection_name(host)
    except UnicodeError:
        return None
    try:
        return ipaddress.ip_address(name)
    except ValueError:
        pass
    if not LEGACY_IPV4.fullmatch(name):
        return None
    try:
        return ipaddress.IPv4Address(socket.inet_aton(name))
    except OSError:
        return None  # cafe.be: letters that read as hex, but a name


def local_name(host: str) -> bool:
    """Whether the name is localhost's (RFC 6761: localhost and every name under it)."""
    try:
        name = connection_name(host)
    except UnicodeError:
        return False
    return name == "localhost" or name.endswith(".localhost")


def resolve(host: str, port: int, *, allow_private: bool) -> str:
    """The address to connect to: the host resolved once, every answer checked."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError):
        raise Refused(f"{host} does not resolve") from None
    addresses = [str(info[4][0]) for info in infos]
    if not addresses:
        raise Refused(f"{host} does not resolve")
    if not allow_private:
        for address in addresses:
            parsed = literal(address.split("%", 1)[0])  # drop an IPv6 zone (fe80::1%eth0)
            if parsed is None or not routable(parsed):
                raise Refused(f"{host} is not a public address ({address})")
    return addresses[0]


def tls_context() -> ssl.SSLContext:
    """The system's trusted authorities, host names checked (the tests swap in their own)."""
    return ssl.create_default_context()


class PinnedHTTPConnection(http.client.HTTPConnection):
    """Plain HTTP to a fixed address, the Host header from the URL's name."""

    def __init__(self, host: str, port: int, *, address: str, timeout: float) -> None:
        super().__init__(host, port, timeout=timeout)
        self.address = address

    def connect(self) -> None:
        self.sock = socket.create_connection((self.address, self.port), self.timeout)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


class PinnedHTTPSConnection(http.client.HTTPSConnection):
    """TLS to a fixed address; SNI and the certificate check use the URL's name."""

    def __init__(
        self, host: str, port: int, *, address: str, timeout: float, context: ssl.SSLContext
    ) -> None:
        super().__init__(host, port, timeout=timeout, context=context)
        self.address, self.tls = address, context

    def connect(self) -> None:
        sock = socket.create_connection((self.address, self.port), self.timeout)
        self.sock = self.tls.wrap_socket(sock, server_hostname=self.host)


def post(
    url: str, body: bytes, headers: dict[str, str], *, allow_private: bool, timeout: float
) -> int:
    """POST `body` to `url`; the HTTP status of the answer. Raises Refused for an address
    that is not public, OSError or http.client.HTTPException when the exchange fails."""
    parts = urlsplit(url)
    host, scheme = parts.hostname or "", parts.scheme
    if scheme not in DEFAULT_PORTS or not host:
        raise Refused(f"{url} is not an http(s) URL")
    port = parts.port or DEFAULT_PORTS[scheme]
    address = resolve(host, port, allow_private=allow_private)
    connection: http.client.HTTPConnection
    if scheme == "https":
        connection = PinnedHTTPSConnection(
            host, port, address=address, timeout=timeout, context=tls_context()
        )
    else:
        connection = PinnedHTTPConnection(host, port, address=address, timeout=timeout)
    target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    try:
        connection.request("POST", target, body=body, headers=headers)
        return int(connection.getresponse().status)
    finally:
        connection.close()
