"""What every feature's API shares: the base view, token authentication, throttling, the
error envelope for DRF, the OpenAPI components, and the meta endpoints (health, rules).
Each feature keeps its own API views, serializers and routes (`api_*.py`)."""
