"""Standard Webhooks signatures (standardwebhooks.com): the sender's side.

    webhook-id: msg_…   webhook-timestamp: unix seconds
    webhook-signature: v1,<base64 HMAC-SHA256(secret, "{id}.{timestamp}.{body}")>

The secret is "whsec_" + base64 of 32 random bytes; the HMAC key is those bytes.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets

PREFIX = "whsec_"


def new_secret() -> str:
    return PREFIX + base64.b64encode(secrets.token_bytes(32)).decode()


def sign(secret: str, message_id: str, timestamp: int, body: bytes) -> str:
    key = base64.b64decode(secret.removeprefix(PREFIX))
    signed = f"{message_id}.{timestamp}.".encode() + body
    digest = hmac.new(key, signed, hashlib.sha256).digest()
    return "v1," + base64.b64encode(digest).decode()


def headers(secret: str, message_id: str, timestamp: int, body: bytes) -> dict[str, str]:
    return {
        "webhook-id": message_id,
        "webhook-timestamp": str(timestamp),
        "webhook-signature": sign(secret, message_id, timestamp, body),
        "content-type": "application/json",
        "user-agent": "sas-tuning-advisor-webhooks",
    }
