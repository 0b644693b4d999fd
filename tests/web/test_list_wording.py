"""The assessment list counts its warnings in words: '1 warning', '7 warnings'."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from advisor.models import Assessment

pytestmark = pytest.mark.django_db


def test_one_warning_is_not_called_warnings(client_in: Client, stored: Assessment) -> None:
    assert len(stored.result["warnings"]) == 1  # lemans: one low warning
    html = client_in.get(reverse("web:list")).content.decode()
    assert '1<span class="visually-hidden"> warning, the most severe</span> · low' in html
    assert '1<span class="visually-hidden"> warnings' not in html
