"""Login lockout by user name and address together (django-axes' combined mode): five wrong
passwords lock that name at that address; nobody else there (one office behind one NAT)
and not that name elsewhere (anyone could lock out the admin from anywhere)."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.test import Client

from advisor.models import Organisation
from tests.conftest import make_member

LOGIN = "/accounts/login/"
OFFICE, HOME = "203.0.113.7", "198.51.100.20"
LIMIT = 5  # LOGIN_FAILURE_LIMIT's default


def _log_in(username: str, password: str, address: str) -> int:
    data = {"username": username, "password": password}
    status: int = Client().post(LOGIN, data, REMOTE_ADDR=address).status_code
    return status


def _fail(username: str, address: str) -> int:
    return _log_in(username, "wrong-password", address)


def test_five_wrong_passwords_lock_that_name_at_that_address(user: User) -> None:
    codes = [_fail("alice", OFFICE) for _ in range(LIMIT + 1)]
    assert codes == [200] * (LIMIT - 1) + [429, 429]  # the fifth failure locks
    right = Client().post(LOGIN, {"username": "alice", "password": "pw-alice"},
                          REMOTE_ADDR=OFFICE)  # fmt: skip
    assert right.status_code == 429  # locked there even with the right password
    assert "Too many failed log-ins" in right.content.decode()
    assert _log_in("alice", "pw-alice", HOME) == 302  # not locked elsewhere


def test_one_name_locked_at_an_address_leaves_the_others_there(
    user: User, org: Organisation
) -> None:
    make_member("bob", org)
    for _ in range(LIMIT):
        _fail("alice", OFFICE)
    assert _fail("alice", OFFICE) == 429
    assert _log_in("bob", "pw-bob", OFFICE) == 302


def test_guessing_many_names_from_an_address_locks_out_nobody_real(
    user: User, org: Organisation
) -> None:
    make_member("bob", org)
    for n in range(3 * LIMIT):
        assert _fail(f"guess{n}", OFFICE) == 200
    assert _log_in("bob", "pw-bob", OFFICE) == 302
    assert _log_in("alice", "pw-alice", OFFICE) == 302


def test_an_outsider_cannot_lock_the_admin_out(db: None) -> None:
    User.objects.create_superuser("root", password="pw-root-long-enough")
    for n in range(LIMIT + 1):
        _fail("root", f"192.0.2.{n}")  # a different address each time: never five at one
    assert _log_in("root", "pw-root-long-enough", OFFICE) == 302
    for _ in range(LIMIT):
        _fail("root", "192.0.2.200")
    assert _log_in("root", "pw-root-long-enough", "192.0.2.200") == 429
    assert _log_in("root", "pw-root-long-enough", OFFICE) == 302


def test_a_success_resets_the_count_at_that_address(user: User) -> None:
    for _ in range(LIMIT - 1):
        _fail("alice", OFFICE)
    assert _log_in("alice", "pw-alice", OFFICE) == 302
    assert [_fail("alice", OFFICE) for _ in range(LIMIT - 1)] == [200] * (LIMIT - 1)
